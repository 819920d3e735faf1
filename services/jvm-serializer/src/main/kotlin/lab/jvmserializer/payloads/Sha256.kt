package lab.jvmserializer.payloads

import java.io.BufferedOutputStream
import java.io.BufferedWriter
import java.io.OutputStream
import java.io.OutputStreamWriter
import java.security.DigestOutputStream
import java.security.MessageDigest

/** Length and sha256 (lowercase hex) of some bytes: the contract's `bytes` and `hash`. */
data class Digest(val bytes: Long, val sha256: String)

fun sha256Hex(bytes: ByteArray): String = hex(MessageDigest.getInstance("SHA-256").digest(bytes))

fun digestOf(bytes: ByteArray): Digest = Digest(bytes.size.toLong(), sha256Hex(bytes))

/**
 * Digest of the UTF-8 text that [write] appends, streamed through a small buffer: a size-100000 reference is about
 * 135 MB of text that never needs to exist in memory at once.
 */
fun digestOfText(write: (Appendable) -> Unit): Digest {
    val md = MessageDigest.getInstance("SHA-256")
    val counter = CountingSink()
    BufferedWriter(OutputStreamWriter(DigestOutputStream(counter, md), Charsets.UTF_8), 1 shl 16).use(write)
    return Digest(counter.count, hex(md.digest()))
}

/** Digest of the bytes that [write] streams, through a small buffer (as [digestOfText], for binary references). */
fun digestOfStream(write: (OutputStream) -> Unit): Digest {
    val md = MessageDigest.getInstance("SHA-256")
    val counter = CountingSink()
    BufferedOutputStream(DigestOutputStream(counter, md), 1 shl 16).use(write)
    return Digest(counter.count, hex(md.digest()))
}

private class CountingSink : OutputStream() {
    var count = 0L
    override fun write(b: Int) { count++ }
    override fun write(b: ByteArray, off: Int, len: Int) { count += len }
}

private fun hex(digest: ByteArray): String = digest.joinToString("") { "%02x".format(it) }
