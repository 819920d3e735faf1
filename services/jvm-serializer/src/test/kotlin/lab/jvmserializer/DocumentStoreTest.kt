package lab.jvmserializer

import lab.jvmserializer.documents.DocumentCheck
import lab.jvmserializer.documents.DocumentStore
import lab.jvmserializer.documents.UserDocument
import lab.jvmserializer.workloads.HttpError
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import lab.jvmserializer.memory.DocumentShape

/** The store's bounds: bytes as well as count, never dropping a held document, 503 and 413 when it cannot take one. */
class DocumentStoreTest {
    private fun doc(id: String, bytes: Int) = UserDocument(id, bytes, "", DocumentCheck(1, DocumentShape(1, 0, bytes.toLong()), "", emptyList(), emptyMap()))

    @Test
    fun `bytes bound it as well as count, least recently used first`() {
        val store = DocumentStore(maxCount = 10, maxBytes = 100)
        store.add(doc("a", 40))
        store.add(doc("b", 40))
        store.peek("a") // a use: b is now the least recently used
        store.add(doc("c", 40))
        assertEquals(null, store.peek("b"))
        assertTrue(store.peek("a") != null && store.peek("c") != null)
    }

    @Test
    fun `a held document is never dropped, 503 with Retry-After when held ones leave no room`() {
        val store = DocumentStore(maxCount = 1, maxBytes = 100)
        store.add(doc("a", 10))
        val held = store.hold("a")
        val busy = assertThrows(HttpError::class.java) { store.add(doc("b", 10)) }
        assertEquals(503, busy.status)
        assertEquals("1", busy.headers["Retry-After"])
        held.close()
        held.close() // released once, however often closed
        assertTrue(store.add(doc("b", 10)))
        assertFalse(store.describe().toString().contains("\"a\""))
    }

    @Test
    fun `413 for a document larger than the whole store`() {
        val error = assertThrows(HttpError::class.java) { DocumentStore(maxCount = 2, maxBytes = 100).add(doc("a", 101)) }
        assertEquals(413, error.status)
        assertEquals("100", error.body()["limitBytes"].toString())
    }
}
