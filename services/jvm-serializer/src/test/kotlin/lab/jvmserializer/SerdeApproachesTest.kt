package lab.jvmserializer

import lab.jvmserializer.payloads.DocumentNames
import lab.jvmserializer.payloads.SpecObject
import lab.jvmserializer.payloads.generateObjects
import lab.jvmserializer.payloads.sha256Hex
import lab.jvmserializer.serde.MultithreadedJsonApproach
import lab.jvmserializer.serde.ObjectsInputs
import lab.jvmserializer.serde.SerdeApproach
import lab.jvmserializer.serde.SerdeWorkload
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.assertThrows

/**
 * Every approach of the serde workload on the pinned vectors and on generated sizes, with the default threshold and
 * with one that makes every size parallel: the bytes hash like the reference, the decoded list equals the input, and
 * json-multithreaded's text is json's, character for character.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SerdeApproachesTest {
    private val vectors = repoVectors()
    private val threshold = Config().serdeParallelMinObjects
    private val standard = serdeWorkload(config = Config(serdeThreads = 2))
    // Parallel from 2 objects on, chunks of one object: every split path at tiny sizes.
    private val eager = serdeWorkload(config = Config(serdeThreads = 3, serdeParallelMinObjects = 2))
    private val inputs = ObjectsInputs(vectors, 0)

    @AfterAll
    fun close() {
        standard.pool.close()
        eager.pool.close()
    }

    @Suppress("UNCHECKED_CAST")
    private fun SerdeWorkload.approach(name: String) = approachesByName.getValue(name) as SerdeApproach<Any?>

    private fun checkRoundTrip(workload: SerdeWorkload, name: String, seed: Int, size: Int) {
        val approach = workload.approach(name)
        val input = inputs.get(seed, size)
        val reference = input.reference(approach.format)
        val trip = approach.roundTrip(input.objects, reference.sha256)
        assertTrue(trip.validated, "$name seed $seed size $size against ${reference.name}")
    }

    @TestFactory
    fun `every approach round-trips every pinned objects vector`(): List<DynamicTest> =
        vectors.documents.filter { it.document == DocumentNames.OBJECTS }.flatMap { v ->
            standard.approaches.map { name ->
                dynamicTest("$name seed ${v.seed} size ${v.size}") {
                    val reference = inputs.get(v.seed, v.size!!).reference(standard.approach(name).format).name
                    assertEquals(if (name.endsWith("cbor")) "plain-cbor-writer" else "vector", reference)
                    checkRoundTrip(standard, name, v.seed, v.size)
                }
            }
        }

    @TestFactory
    fun `every approach round-trips sizes around the parallel threshold`(): List<DynamicTest> =
        listOf(1, 2, 3, threshold / 2, threshold - 1, threshold, threshold + 1, 2 * threshold + 3, 1009).distinct().flatMap { size ->
            standard.approaches.flatMap { name ->
                listOf(
                    dynamicTest("$name size $size") { checkRoundTrip(standard, name, 11, size) },
                    dynamicTest("$name size $size, parallel from 2") { checkRoundTrip(eager, name, 11, size) },
                )
            }
        }

    @Test
    fun `json-multithreaded writes json's text exactly and reads it back, at every size from 0 to 40`() {
        val json = standard.approach("json")
        for (workload in listOf(standard, eager)) {
            val mt = workload.approach("json-multithreaded")
            for (size in 0..40) {
                val objects = generateObjects(5, size)
                val text = mt.serialize(objects) as String
                assertEquals(json.serialize(objects), text, "size $size")
                assertEquals(objects, mt.deserialize(text), "size $size")
            }
        }
    }

    @Test
    fun `strings with escapes and non-ASCII text round-trip, and the multithreaded text is json's`() {
        val awkward = listOf("\"", "\\", "\\\"", "},{", "[", "]", ",", "é", "中文", "😀", "\n\t\u0001", "\u2028", "", "a\"b\\c")
        val objects = List(50) { i -> SpecObject(awkward[i % awkward.size], i - 25, List(7) { awkward[(it + i) % awkward.size] }) }
        val json = eager.approach("json")
        val mt = eager.approach("json-multithreaded")
        val text = mt.serialize(objects)
        assertEquals(json.serialize(objects), text)
        assertEquals(objects, mt.deserialize(text))
        for (name in eager.approaches) {
            val approach = eager.approach(name)
            assertEquals(objects, approach.deserialize(approach.serialize(objects)), name)
        }
        // Jackson escapes the same characters as kotlinx here (quote, backslash, control characters as \uXXXX or \n).
        assertEquals(sha256Hex(json.wireBytes(json.serialize(objects))), sha256Hex(eager.approach("jackson").let { it.wireBytes(it.serialize(objects)) }))
    }

    @Test
    fun `a wrong guessed cut is caught by the decoding and the true boundaries are scanned`() {
        val mt = eager.approachesByName.getValue("json-multithreaded") as MultithreadedJsonApproach
        // Every string holds what a cut looks for, so the guesses land inside strings.
        val tricky = List(40) { i -> SpecObject("n},{$i", i, List(100) { k -> "a},{\"b$k" }) }
        val before = mt.rescans()
        assertEquals(tricky, mt.deserialize(json(tricky)))
        assertTrue(mt.rescans() > before, "the wrong cut was detected")
        // The spec's own documents never need it.
        val plain = generateObjects(3, 400)
        val after = mt.rescans()
        assertEquals(plain, mt.deserialize(json(plain)))
        assertEquals(after, mt.rescans())
    }

    @Test
    fun `json-multithreaded refuses what json refuses`() {
        val mt = eager.approach("json-multithreaded")
        val text = json(generateObjects(4, 30))
        for (broken in listOf(text.dropLast(1), "$text]", text.replaceFirst("},{", "},,{"), text.dropLast(1) + ",]", text.replace("\"name\"", "\"nom\""))) {
            assertThrows<IllegalArgumentException>(broken.takeLast(20)) { mt.deserialize(broken) }
        }
    }

    private fun json(objects: List<SpecObject>) = standard.approach("json").serialize(objects) as String

    @Test
    fun `json-multithreaded decodes json with white space between elements`() {
        val objects = generateObjects(9, 12)
        val spaced = (standard.approach("json").serialize(objects) as String).replace("},{", "} ,\n {")
        assertEquals(objects, eager.approach("json-multithreaded").deserialize(spaced))
    }
}
