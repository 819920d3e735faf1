package lab.jvmserializer.payloads

import kotlinx.serialization.Serializable
import kotlinx.serialization.json.Json
import java.io.File

/** payloads/vectors.json, the lab's one copy of the reference hashes (see payloads/SPEC.md, "Test vectors"). */
@Serializable
data class Vectors(val prng: List<PrngVector>, val documents: List<DocumentVector>) {
    /** The pinned sha256 of an `objects` document, or null when vectors.json does not pin (seed, size). */
    fun objectsHash(seed: Int, size: Int): String? =
        documents.firstOrNull { it.document == DocumentNames.OBJECTS && it.seed == seed && it.size == size }?.sha256

    companion object {
        /** The jar carries a build-time copy (see pom.xml); the tests read the repository's file directly. */
        private const val RESOURCE = "/payloads/vectors.json"
        private val json = Json { ignoreUnknownKeys = true }

        fun parse(text: String): Vectors = json.decodeFromString(serializer(), text)

        fun fromFile(file: File): Vectors = parse(file.readText())

        fun fromClasspath(): Vectors {
            val stream = Vectors::class.java.getResourceAsStream(RESOURCE)
                ?: throw IllegalStateException("$RESOURCE is missing from the classpath; build with Maven")
            return stream.use { parse(it.readBytes().decodeToString()) }
        }
    }
}

@Serializable
data class PrngVector(val seed: Int, val outputs: List<Long>)

@Serializable
data class DocumentVector(
    val document: String,
    val seed: Int,
    val size: Int? = null,
    val case: String? = null,
    val bytes: Long,
    val sha256: String,
    val json: String? = null,
)
