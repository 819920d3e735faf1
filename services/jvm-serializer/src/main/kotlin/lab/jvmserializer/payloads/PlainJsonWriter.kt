package lab.jvmserializer.payloads

/**
 * A minimal hand-written writer for the `objects` document: the reference that a serializer's output is checked
 * against when vectors.json does not pin the (seed, size). It may skip escaping because the spec's strings only use
 * ALPHABET, which JSON never escapes; the vector tests hold it to byte-identical output.
 */
object PlainJsonWriter {
    fun writeObjects(objects: List<SpecObject>, out: Appendable) {
        out.append('[')
        objects.forEachIndexed { i, o ->
            if (i > 0) out.append(',')
            out.append("{\"name\":\"").append(o.name).append("\",\"number\":").append(o.number.toString())
            out.append(",\"strings\":[")
            o.strings.forEachIndexed { k, s ->
                if (k > 0) out.append(',')
                out.append('"').append(s).append('"')
            }
            out.append("]}")
        }
        out.append(']')
    }

    fun objectsToString(objects: List<SpecObject>): String = StringBuilder().also { writeObjects(objects, it) }.toString()
}
