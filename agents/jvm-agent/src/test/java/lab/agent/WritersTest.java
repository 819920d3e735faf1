package lab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hand-written formats and the settings, in this JVM: what real processes cannot be made to produce. */
class WritersTest {
    @Test
    void labelValuesAndHelpAreEscaped() {
        Exposition out = new Exposition(true);
        out.family("x_total", "counter", "a \\ help\nline");
        out.sample("x_total", List.of("pool"), List.of("a \"quoted\" \\ name\nhere"), 1.5);
        assertEquals("# HELP x_total a \\\\ help\\nline\n# TYPE x_total counter\nx_total{pool=\"a \\\"quoted\\\" \\\\ name\\nhere\"} 1.5\n", out.text());
    }

    @Test
    void histogramsAreCumulativeWithInf() {
        Histogram h = new Histogram("h_seconds", "h", List.of("kind"), new double[] {0.1, 1});
        h.observe(0.05, "a");
        h.observe(0.5, "a");
        h.observe(5, "a");
        Exposition out = new Exposition(true);
        h.writeTo(out);
        String text = out.text();
        assertTrue(text.contains("h_seconds_bucket{kind=\"a\",le=\"0.1\"} 1\n"), text);
        assertTrue(text.contains("h_seconds_bucket{kind=\"a\",le=\"1.0\"} 2\n"), text);
        assertTrue(text.contains("h_seconds_bucket{kind=\"a\",le=\"+Inf\"} 3\n"), text);
        assertTrue(text.contains("h_seconds_sum{kind=\"a\"} 5.55\n"), text);
        assertTrue(text.contains("h_seconds_count{kind=\"a\"} 3\n"), text);
    }

    @Test
    void jsonEscapesAndNumbers() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("s", "a\"b\\c\n\u0001\u2028");
        value.put("n", List.of(1, 2L, 2.0, 0.25, Double.NaN));
        value.put("b", true);
        value.put("z", null);
        assertEquals("{\"s\":\"a\\\"b\\\\c\\n\\u0001\\u2028\",\"n\":[1,2,2,0.25,null],\"b\":true,\"z\":null}", Json.write(value));
    }

    @Test
    void settingsDefaultsArgumentsAndRefusals() {
        Settings defaults = Settings.from(Map.of(), null);
        assertEquals(Settings.DEFAULT_PORT, defaults.port);
        assertEquals(Settings.DEFAULT_HOST, defaults.host);
        assertEquals(null, defaults.profileToken);
        Settings set = Settings.from(Map.of("LAB_AGENT_PORT", "7", "LAB_PROFILE_TOKEN", "t", "LAB_AGENT_HOST_NAMES", "A.example, b"),
            "port=0,hostNames=c;d");
        assertEquals(0, set.port);
        assertEquals("t", set.profileToken);
        assertEquals(List.of("c", "d"), set.hostNames);
        assertEquals(List.of("a.example", "b"), Settings.from(Map.of("LAB_AGENT_HOST_NAMES", "A.example, b"), "").hostNames);
        for (String port : List.of("-1", "65536", "x", "1e3")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Settings.from(Map.of("LAB_AGENT_PORT", port), null));
            assertTrue(e.getMessage().contains("LAB_AGENT_PORT"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Settings.from(Map.of(), "token=x"));
        assertThrows(IllegalArgumentException.class, () -> Settings.from(Map.of(), "port"));
    }

    @Test
    void hostNames() {
        assertEquals("::1", SameSite.nameOf("[::1]:80"));
        assertEquals("example.com", SameSite.nameOf("Example.COM:8080"));
        assertTrue(SameSite.isIpLiteral("10.0.0.255"));
        assertTrue(!SameSite.isIpLiteral("10.0.0.256"));
        assertTrue(!SameSite.isIpLiteral("cafe"));
    }
}
