package lab.jvmserializer.payloads

import java.io.OutputStream

/**
 * How a CBOR library frames the `objects` document. Both libraries write every integer and length in its shortest
 * form and every string as one definite-length UTF-8 text string; they differ in the containers (RFC 8949 3.2.2):
 * kotlinx.serialization writes arrays and maps of indefinite length (0x9f/0xbf ... 0xff), Jackson writes arrays of
 * definite length (it knows a collection's size first) and a bean as an indefinite map.
 */
enum class CborDialect(val label: String, val definiteArrays: Boolean, val definiteMaps: Boolean) {
    KOTLINX("kotlinx", definiteArrays = false, definiteMaps = false),
    JACKSON("jackson", definiteArrays = true, definiteMaps = false),
}

/**
 * The CBOR reference for the `objects` document, as [PlainJsonWriter] is for JSON: a minimal hand-written encoder
 * whose bytes a library's must equal. Streams into [out] (a digest), so a size-100000 reference never sits in memory;
 * the tests hold it to the pinned hashes of both libraries.
 */
class PlainCborWriter(private val out: OutputStream, private val dialect: CborDialect) {
    fun writeObjects(objects: List<SpecObject>) {
        array(objects.size)
        for (o in objects) {
            map(3)
            text("name")
            text(o.name)
            text("number")
            integer(o.number.toLong())
            text("strings")
            array(o.strings.size)
            for (s in o.strings) text(s)
            if (!dialect.definiteArrays) out.write(BREAK)
            if (!dialect.definiteMaps) out.write(BREAK)
        }
        if (!dialect.definiteArrays) out.write(BREAK)
    }

    private fun array(size: Int) = if (dialect.definiteArrays) head(MAJOR_ARRAY, size.toLong()) else out.write(MAJOR_ARRAY or INDEFINITE)

    private fun map(size: Int) = if (dialect.definiteMaps) head(MAJOR_MAP, size.toLong()) else out.write(MAJOR_MAP or INDEFINITE)

    private fun text(s: String) {
        val bytes = s.encodeToByteArray()
        head(MAJOR_TEXT, bytes.size.toLong())
        out.write(bytes)
    }

    // Major type 0 for n >= 0, 1 for n < 0 (encoding -1 - n).
    private fun integer(n: Long) = if (n >= 0) head(MAJOR_UNSIGNED, n) else head(MAJOR_NEGATIVE, -1 - n)

    /** A head with its argument in the shortest form: in the initial byte below 24, else in 1, 2, 4 or 8 bytes. */
    private fun head(major: Int, argument: Long) {
        val width = when {
            argument < 24 -> return out.write(major or argument.toInt())
            argument <= 0xFF -> 1
            argument <= 0xFFFF -> 2
            argument <= 0xFFFF_FFFFL -> 4
            else -> 8
        }
        out.write(major or (24 + Integer.numberOfTrailingZeros(width)))
        for (shift in (width - 1) * 8 downTo 0 step 8) out.write((argument ushr shift).toInt() and 0xFF)
    }

    private companion object {
        const val MAJOR_UNSIGNED = 0x00
        const val MAJOR_NEGATIVE = 0x20
        const val MAJOR_TEXT = 0x60
        const val MAJOR_ARRAY = 0x80
        const val MAJOR_MAP = 0xa0
        const val INDEFINITE = 31
        const val BREAK = 0xff
    }
}
