package lab.jvmserializer.http

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import lab.jvmserializer.DocumentSettings
import lab.jvmserializer.documents.DocumentApproach
import lab.jvmserializer.documents.DocumentCheck
import lab.jvmserializer.documents.DocumentStore
import lab.jvmserializer.documents.JsonScan
import lab.jvmserializer.documents.NotJson
import lab.jvmserializer.documents.UserDocument
import lab.jvmserializer.memory.DocumentShape
import lab.jvmserializer.memory.MemoryBudget
import lab.jvmserializer.memory.UploadMemory
import lab.jvmserializer.Config
import lab.jvmserializer.payloads.sha256Hex
import lab.jvmserializer.workloads.HttpError
import lab.jvmserializer.workloads.strings
import org.eclipse.jetty.http.HttpHeader
import org.eclipse.jetty.server.Request
import java.nio.ByteBuffer
import java.nio.CharBuffer
import java.nio.charset.CodingErrorAction
import java.util.concurrent.Semaphore

/**
 * PUT /documents and GET /documents (CONTRACT.md, "Users' documents"), refused as node-kit/document-upload.js refuses:
 * 415 unless declared JSON (uncompressed UTF-8), 413 over the cap (a declared length before a byte is read, else as
 * soon as the body passes it), 400 naming the byte offset of a sequence that is not UTF-8, 400 with the line, column
 * and an excerpt where the text stops being JSON, 400 naming its depth past [settings]' maxDepth. The id is the
 * sha256 of the body's bytes, which are the text's UTF-8: the Node services' id for the same bytes. Another site's
 * request reaches neither route ([SameSite], checked for every route by [LabHandler]: 403). The answer adds
 * `findings` and `approaches` ([DocumentCheck]). The body is read whole first ([BodyReader]: 408 past
 * [requestTimeoutMs] from the request's first byte), then checked. One document is checked at a time: a check builds
 * each library's tree of it, hundreds of MB for a large one, so a second upload meanwhile gets 503 instead of doubling
 * that; a body still arriving holds no check, so a client that trickles one holds back no other upload.
 */
class DocumentRoutes(
    val store: DocumentStore,
    private val settings: DocumentSettings,
    private val approaches: Map<String, DocumentApproach<*, *>>,
    private val budget: MemoryBudget,
    requestTimeoutMs: Long = 0,
) {
    private val checking = Semaphore(1)
    private val body = BodyReader(settings.maxDocumentBytes, requestTimeoutMs)
    private val models = approaches.values.map { it.memory }

    /** /info's `documents`. */
    fun describe(): JsonObject = buildJsonObject {
        put("maxCount", store.maxCount)
        put("maxBytes", store.maxBytes)
        put("maxDocumentBytes", settings.maxDocumentBytes)
        put("maxDepth", settings.maxDepth)
        put("maxNodes", UploadMemory.maxNodes(models, budget.capacityBytes))
        put("kinds", strings(listOf("json")))
    }

    fun list(): Answer = Answer.json(200, store.describe())

    fun put(request: Request): Answer {
        checkDeclaration(request)
        val declared = request.headers.getLongField(HttpHeader.CONTENT_LENGTH)
        if (declared > settings.maxDocumentBytes) throw body.tooLarge()
        // The upload's share of the heap: it grows as the body arrives, then to the scan's and the readings' needs.
        budget.reserve(0, "this upload").use { share ->
            val bytes = body.read(request, share)
            if (!checking.tryAcquire()) {
                throw HttpError(503, "another document is being checked; retry when it is stored", headers = mapOf("Retry-After" to "1"))
            }
            try {
                return check(bytes, share)
            } catch (e: OutOfMemoryError) {
                // Only if the memory model fell short: the check's garbage is collectable once it unwinds.
                System.err.println("[${Config.SERVICE_NAME}] PUT /documents: out of memory (${bytes.size} bytes): $e")
                throw HttpError(503, "out of memory while checking the document; retry later", headers = mapOf("Retry-After" to "1"))
            } finally {
                checking.release()
            }
        }
    }

    /** The check of a document's [bytes] with its upload's [share] of the heap, and the answer. */
    private fun check(bytes: ByteArray, share: MemoryBudget.Reservation): Answer {
        val sha256 = sha256Hex(bytes)
        store.peek(sha256)?.let { return answer(200, it) }
        if (!share.resize(UploadMemory.SCAN_PER_BYTE * bytes.size)) throw budget.busy(UploadMemory.SCAN_PER_BYTE * bytes.size, "checking this document")
        val text = utf8(bytes)
        val (scan, digest) = try {
            JsonScan.of(text, settings.maxDepth)
        } catch (e: NotJson) {
            throw HttpError(400, "the document is not JSON: ${e.message}", mapOf(
                "line" to JsonPrimitive(e.line), "column" to JsonPrimitive(e.column), "excerpt" to JsonPrimitive(e.excerpt)))
        } catch (e: JsonScan.TooDeep) {
            throw HttpError(400, "the document nests ${e.depth} levels deep; this service takes at most ${settings.maxDepth}",
                mapOf("depth" to JsonPrimitive(e.depth), "maxDepth" to JsonPrimitive(settings.maxDepth)))
        }
        // What the store takes is what this runtime can run: an approach whose check and runs would not fit the whole
        // budget fails on the document (its runs get 400), and a document none can run is not kept (413).
        val shape = DocumentShape(scan.nodes, scan.keys, bytes.size.toLong())
        val needs = approaches.mapValues { (_, approach) -> UploadMemory.checkBytes(approach.memory, shape) }
        val cannotRun = approaches.filterKeys { needs.getValue(it) > budget.capacityBytes }
            .mapValues { (name, approach) -> tooLargeFor(needs.getValue(name), approach, shape) }
        if (cannotRun.size == approaches.size) throw tooManyNodes(shape)
        val need = needs.filterKeys { it !in cannotRun }.values.max()
        if (!share.resize(need)) throw budget.busy(need, "checking this document")
        val document = UserDocument(sha256, bytes.size, text, DocumentCheck.of(text, scan, shape, digest.sha256, approaches, cannotRun))
        val created = store.add(document)
        return answer(if (created) 201 else 200, document)
    }

    /** Why an approach cannot run a document here, in words: what it needs, what runs may hold, what would fit. */
    private fun tooLargeFor(need: Long, approach: DocumentApproach<*, *>, shape: DocumentShape) =
        "a run of this document needs about ${MemoryBudget.mib(need)} MiB of heap, more than runs may hold here " +
            "(${MemoryBudget.mib(budget.capacityBytes)} MiB, RUN_MEMORY_BYTES): the document holds ${shape.nodes} JSON values, " +
            "at most ${UploadMemory.limitNodes(listOf(approach.memory), shape, budget.capacityBytes)} for this approach at its size"

    /** 413: no approach can run a document of this many values (and this text) within the heap runs may hold. */
    private fun tooManyNodes(shape: DocumentShape): HttpError {
        val limit = UploadMemory.limitNodes(models, shape, budget.capacityBytes)
        return HttpError(413, "the document holds ${shape.nodes} JSON values, more than any approach here can run within the " +
            "heap runs may hold (${MemoryBudget.mib(budget.capacityBytes)} MiB): at most $limit at its size",
            mapOf("nodes" to JsonPrimitive(shape.nodes), "limitNodes" to JsonPrimitive(limit)))
    }

    private fun answer(status: Int, document: UserDocument): Answer = Answer.json(status, JsonObject(mapOf<String, JsonElement>(
        "sha256" to JsonPrimitive(document.sha256),
        "kind" to JsonPrimitive("json"),
        "bytes" to JsonPrimitive(document.bytes),
        "depth" to JsonPrimitive(document.check.depth),
        "run" to JsonPrimitive("document=${document.sha256}"),
        "findings" to JsonArray(document.check.findings.map { it.toJson() }),
        "approaches" to document.check.describeReadings(),
    )))

    companion object {
        private val CLOSE = mapOf("Connection" to "close")
        private val JSON_TYPE = Regex("^application/(?:[\\w.+-]+\\+)?json\\s*(?:;|$)", RegexOption.IGNORE_CASE)
        private val CHARSET = Regex(";\\s*charset\\s*=\\s*(?:\"([^\"]*)\"|([^;\\s]*))", RegexOption.IGNORE_CASE)
        private val ACCEPTED = buildJsonObject {
            put("contentEncoding", strings(listOf("identity")))
            put("charset", strings(listOf("utf-8")))
        }

        /** node-kit's body-declaration.js, then the kind: 415 naming what is accepted. */
        fun checkDeclaration(request: Request) {
            val encodings = request.headers.getValuesList(HttpHeader.CONTENT_ENCODING)
                .flatMap { it.split(',') }.map { it.trim().lowercase() }.filter { it.isNotEmpty() }
            encodings.firstOrNull { it != "identity" }?.let {
                throw HttpError(415, "Content-Encoding $it is not accepted: send the body uncompressed (identity)", mapOf("accepted" to ACCEPTED), CLOSE)
            }
            val type = request.headers.get(HttpHeader.CONTENT_TYPE) ?: ""
            CHARSET.find(type)?.let { m ->
                val charset = (m.groups[1]?.value ?: m.groups[2]?.value ?: "").lowercase()
                if (charset != "utf-8") {
                    throw HttpError(415, "charset $charset is not accepted: send the body as UTF-8 (charset=utf-8, or no charset)", mapOf("accepted" to ACCEPTED), CLOSE)
                }
            }
            if (!JSON_TYPE.containsMatchIn(type)) {
                throw HttpError(415, "send the document as JSON: Content-Type: application/json (this service takes no CSV documents)",
                    mapOf("accepted" to strings(listOf("application/json"))), CLOSE)
            }
        }

        /** Strict UTF-8: a 400 naming the offset of the first sequence that is not a character (never U+FFFD). */
        fun utf8(bytes: ByteArray): String {
            val decoder = Charsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
            val input = ByteBuffer.wrap(bytes)
            val output = CharBuffer.allocate(bytes.size)
            val result = decoder.decode(input, output, true)
            if (result.isError || decoder.flush(output).isError) {
                throw HttpError(400, "the body is not UTF-8: the byte sequence at byte offset ${input.position()} is not a UTF-8 character",
                    mapOf("byteOffset" to JsonPrimitive(input.position())))
            }
            output.flip()
            return output.toString()
        }
    }
}
