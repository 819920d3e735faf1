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
    requestTimeoutMs: Long = 0,
) {
    private val checking = Semaphore(1)
    private val body = BodyReader(settings.maxDocumentBytes, requestTimeoutMs)

    /** /info's `documents`. */
    fun describe(): JsonObject = buildJsonObject {
        put("maxCount", store.maxCount)
        put("maxBytes", store.maxBytes)
        put("maxDocumentBytes", settings.maxDocumentBytes)
        put("maxDepth", settings.maxDepth)
        put("kinds", strings(listOf("json")))
    }

    fun list(): Answer = Answer.json(200, store.describe())

    fun put(request: Request): Answer {
        checkDeclaration(request)
        val declared = request.headers.getLongField(HttpHeader.CONTENT_LENGTH)
        if (declared > settings.maxDocumentBytes) throw body.tooLarge()
        val bytes = body.read(request)
        if (!checking.tryAcquire()) {
            throw HttpError(503, "another document is being checked; retry when it is stored", headers = mapOf("Retry-After" to "1"))
        }
        try {
            val text = utf8(bytes)
            val sha256 = sha256Hex(bytes)
            val kept = store.peek(sha256)
            if (kept != null) return answer(200, kept)
            val (scan, digest) = try {
                JsonScan.of(text, settings.maxDepth)
            } catch (e: NotJson) {
                throw HttpError(400, "the document is not JSON: ${e.message}", mapOf(
                    "line" to JsonPrimitive(e.line), "column" to JsonPrimitive(e.column), "excerpt" to JsonPrimitive(e.excerpt)))
            } catch (e: JsonScan.TooDeep) {
                throw HttpError(400, "the document nests ${e.depth} levels deep; this service takes at most ${settings.maxDepth}",
                    mapOf("depth" to JsonPrimitive(e.depth), "maxDepth" to JsonPrimitive(settings.maxDepth)))
            }
            val document = UserDocument(sha256, bytes.size, text, DocumentCheck.of(text, scan, digest.sha256, approaches))
            val created = store.add(document)
            return answer(if (created) 201 else 200, document)
        } finally {
            checking.release()
        }
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
