package lab.jvmserializer

import lab.jvmserializer.metrics.MetricNames
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** CONTRACT.md, "Metrics": http_request_duration_seconds' labels come from closed sets, so requests cannot add series. */
class MetricLabelsTest {
    @Test
    fun `a hundred made-up methods add no series to metrics`() {
        TestServer(listOf(serdeWorkload())).use { service ->
            fun series(): Set<String> = service.get("/metrics").body().lines()
                .filter { it.startsWith("${MetricNames.HTTP_DURATION}_count{") }
                .map { it.substringBefore('}') + "}" }
                .toSet()
            fun madeUp(i: Int) = RawHttp.exchange(service.port, "M$i${"X".repeat(1000)} /healthz HTTP/1.1\r\nHost: x\r\n\r\n")

            assertEquals(400, madeUp(0).status)
            series() // its own GET /metrics series exists from now on
            val before = series()
            for (i in 1..100) assertEquals(400, madeUp(i).status)
            val after = series()
            assertEquals(before, after)
            assertTrue(after.contains("""${MetricNames.HTTP_DURATION}_count{method="other",route="unmatched",status_code="400"}"""), after.toString())
            val methods = after.map { Regex("""method="([^"]*)"""").find(it)!!.groupValues[1] }.toSet()
            assertTrue(methods.all { it in lab.jvmserializer.http.RequestTarget.METHODS || it == "other" }, methods.toString())
            assertEquals(200, service.get("/healthz").statusCode())
        }
    }
}
