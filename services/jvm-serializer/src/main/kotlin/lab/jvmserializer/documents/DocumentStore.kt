package lab.jvmserializer.documents

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.strings

/** A stored document: its text, and what its runs are checked against ([UserDocument.check]). */
class UserDocument(val sha256: String, val bytes: Int, val text: String, val check: DocumentCheck)

/**
 * Users' documents by the sha256 of their text (the Node services' node-kit/document-store.js, kept in the same way):
 * at most [maxCount] documents and [maxBytes] of their text; a new one drops the least recently used first, never one a
 * run holds. Texts only, as in Node: a parsed tree costs several times its text, which the byte cap would not see.
 */
class DocumentStore(val maxCount: Int, val maxBytes: Int) {
    private class Entry(val document: UserDocument) {
        var holds = 0
    }

    // Access order: iteration starts at the least recently used.
    private val entries = LinkedHashMap<String, Entry>(16, 0.75f, true)
    private var storedBytes = 0L

    /** The document if it is kept (a hit counts as a use). */
    @Synchronized
    fun peek(sha256: String): UserDocument? = entries[sha256]?.document

    /** Its size in bytes, without counting as a use (a run's weight is read before the run holds it); null: not here. */
    @Synchronized
    fun bytesOf(sha256: String): Int? = entries.entries.firstOrNull { it.key == sha256 }?.value?.document?.bytes

    /**
     * Keeps [document]; false if it was kept already. Throws 413 for one larger than the whole store, 503 with
     * Retry-After when the documents runs hold leave no room.
     */
    @Synchronized
    fun add(document: UserDocument): Boolean {
        if (entries[document.sha256] != null) return false
        if (document.bytes > maxBytes) {
            throw HttpError(413, "the document (${document.bytes} bytes) is larger than the store ($maxBytes bytes)",
                mapOf("limitBytes" to JsonPrimitive(maxBytes)))
        }
        val iterator = entries.values.iterator()
        while (!fits(document.bytes) && iterator.hasNext()) {
            val entry = iterator.next()
            if (entry.holds > 0) continue
            iterator.remove()
            storedBytes -= entry.document.bytes
        }
        if (!fits(document.bytes)) {
            throw HttpError(503, "the stored documents are all in use by runs; retry when they end",
                mapOf("maxCount" to JsonPrimitive(maxCount), "maxBytes" to JsonPrimitive(maxBytes)), mapOf("Retry-After" to "1"))
        }
        entries[document.sha256] = Entry(document)
        storedBytes += document.bytes
        return true
    }

    private fun fits(bytes: Int) = entries.size < maxCount && storedBytes + bytes <= maxBytes

    /** The document for a run, never dropped until [Held.close]; a 404 naming what is stored when it is not here. */
    @Synchronized
    fun hold(sha256: String): Held {
        val entry = entries[sha256] ?: throw HttpError(404, "no document $sha256 here: PUT /documents adds one",
            mapOf("parameter" to JsonPrimitive("document"), "stored" to strings(entries.keys.toList())))
        entry.holds++
        return Held(entry.document) { release(entry) }
    }

    @Synchronized
    private fun release(entry: Entry) {
        entry.holds--
    }

    /** GET /documents: the caps, and each document from the least recently used; never a text. */
    @Synchronized
    fun describe(): JsonObject = buildJsonObject {
        put("maxCount", maxCount)
        put("maxBytes", maxBytes)
        put("count", entries.size)
        put("bytes", storedBytes)
        put("documents", JsonArray(entries.values.map { e ->
            buildJsonObject {
                put("sha256", e.document.sha256)
                put("kind", "json")
                put("bytes", e.document.bytes)
                put("inUse", e.holds > 0)
            }
        }))
    }

    /** A document a run uses; closing it lets the store drop it again (once, however often it is closed). */
    class Held(val document: UserDocument, private val onRelease: () -> Unit) : AutoCloseable {
        private var released = false

        override fun close() {
            if (!released) onRelease()
            released = true
        }
    }
}
