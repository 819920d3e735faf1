package lab.jvmserializer

import lab.jvmserializer.documents.DocumentApproach
import lab.jvmserializer.documents.JsonScan
import lab.jvmserializer.memory.DocumentShape
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.TestFactory
import org.junit.jupiter.api.TestInstance
import java.lang.management.ManagementFactory
import java.lang.ref.Reference

/**
 * Each document approach's memory model against the heap its parsed tree really keeps, on the densest shapes: the
 * heap in use after a full collection, with the tree held and after it is gone. Memory, not time: the same on any
 * machine. The model must never be below what was measured (a run it admits would not fit), and on the shape it was
 * fitted to (`[{},{},…]`, the most bytes per value) not far above (it would refuse documents that fit).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryModelTest {
    private val workload = serdeWorkload()
    private val values = 300_000

    @AfterAll
    fun stop() = workload.pool.close()

    private fun shapes(): Map<String, String> = mapOf(
        "[{},{},…]" to array { "{}" },
        "[[],[],…]" to array { "[]" },
        "[0,0,…]" to array { "0" },
        "[\"\",…]" to array { "\"\"" },
        "[0.5,…]" to array { "0.5" },
        "{\"k0\":0,…}" to buildString {
            append('{')
            for (k in 0 until values) append(if (k > 0) "," else "").append("\"k").append(k.toString(36)).append("\":0")
            append('}')
        },
        "one long string" to "[\"" + "abcdefgh".repeat(values) + "\"]",
        "one long string beyond Latin-1" to "[\"" + "абвг".repeat(values) + "\"]",
    )

    private fun array(element: () -> String) = (1..values).joinToString(",", "[", "]") { element() }

    private fun heapAfterCollection(): Long {
        repeat(2) { System.gc() }
        return ManagementFactory.getMemoryMXBean().heapMemoryUsage.used
    }

    /** Bytes the tree [approach] makes of [text] keeps on the heap. */
    private fun retained(approach: DocumentApproach<*, *>, text: String): Long {
        val before = heapAfterCollection()
        val tree = approach.prepare(text)
        val after = heapAfterCollection()
        Reference.reachabilityFence(tree) // the tree is measured alive
        return after - before
    }

    @TestFactory
    fun `a tree never keeps more than its approach's model says`(): List<DynamicTest> = shapes().flatMap { (name, text) ->
        val (scan, _) = JsonScan.of(text, 10, findTopics = false)
        val shape = DocumentShape(scan.nodes, scan.keys, text.encodeToByteArray().size.toLong())
        workload.documentApproaches.map { (approachName, approach) ->
            dynamicTest("$approachName on $name") {
                val measured = retained(approach, text)
                val estimate = approach.memory.treeBytes(shape)
                assertTrue(measured <= estimate, "measured $measured bytes, model $estimate")
                if (name == "[{},{},…]") assertTrue(estimate <= 2 * measured, "the model ($estimate) is far above what was measured ($measured)")
            }
        }
    }
}
