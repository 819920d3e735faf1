package lab.jvmserializer

/**
 * Documents shaped where json-multithreaded chooses its split (JsonBulk): generated, deterministic, with the keys and
 * values that make a cut or a re-encoding go wrong (escaped and non-ASCII keys, `~` and `/` in a key, commas and
 * brackets inside strings, empty objects, nested arrays).
 */
object BulkDocuments {
    /** An npm packument's shape (registry.npmjs.org/next): a few small fields, `versions`, `time`, `maintainers`. */
    fun packument(versions: Int): String = buildString {
        append("""{"_id":"next","name":"next","dist-tags":{"latest":"15.0.$versions","canary":"16.0.0-canary.1"},"versions":{""")
        for (v in 0 until versions) {
            if (v > 0) append(',')
            append(""""15.0.$v":{"name":"next","version":"15.0.$v","description":"The React Framework, \"v$v\" ,]}","scripts":{},""")
            append(""""dependencies":{"react":"^19.0.0","caf\u00e9-$v":"1.$v.0","k\"q,$v":"~2","a/b~c":"*"},"keywords":[["ssr",[]],[],{}],""")
            append(""""dist":{"shasum":"${"%040x".format(v.toLong() * 2654435761L)}","tarball":"https://registry.npmjs.org/next/-/next-15.0.$v.tgz"},""")
            append(""""_npmUser":{"name":"vercel-release-bot","email":"infra+release@vercel.com"},"gitHead":"€ \ud83d\ude00 $v"}""")
        }
        append("""},"time":{"created":"2016-10-05T23:28:15.016Z","modified":"2026-11-28T23:15:04.213Z"""")
        for (v in 0 until versions) append(""","15.0.$v":"2024-${1 + v % 12}-${1 + v % 28}T12:00:00.000Z"""")
        append("""},"maintainers":[{"name":"rauchg","email":"rauchg@gmail.com"},{"name":"timneutkens","email":"tim@timneutkens.nl"}],""")
        append(""""readme":"","readmeFilename":""}""")
    }

    /** The objects' shape: one array of records, as the root or as a document's one member. */
    fun records(count: Int, wrapped: Boolean): String {
        val rows = (0 until count).joinToString(",", "[", "]") { """{"id":$it,"tags":["a$it","b,]}$it"],"nested":{"x":[$it,[$it]],"e":{}}}""" }
        return if (wrapped) """{"meta":{"count":$count},"rows":$rows}""" else rows
    }

    /** No container worth splitting: a long string holds most of the text, a small object of versions the rest. */
    fun readmeHeavy(versions: Int): String = buildString {
        append("""{"readme":"""")
        repeat(versions * 3) { append("A line of the readme, with \\\"quotes\\\", commas, {braces} and [brackets].\\n") }
        append("""","versions":{""")
        append((0 until versions).joinToString(",") { """"1.$it.0":{"name":"x","version":"1.$it.0"}""" })
        append("}}")
    }
}
