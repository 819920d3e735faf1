package lab.agent;

import com.sun.net.httpserver.Headers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps other sites' web pages away from every route but GET /healthz and GET /metrics, with node-kit/cross-site.js's
 * rules (CONTRACT.md, "Errors", row 6a):
 * - the Host must name this server (an IP literal, localhost, *.localhost, this machine's name or LAB_AGENT_HOST_NAMES),
 *   so a DNS name another site rebinds to 127.0.0.1 reaches nothing; a request without Host (HTTP/1.0) passes;
 * - a GET or HEAD with `Sec-Fetch-Site: cross-site` is refused unless the user navigated there;
 * - any other method must carry no Origin but http://Host and a Sec-Fetch-Site of same-origin or none.
 * Clients that are not browsers (curl, the load driver, the tests) send none of these headers and pass.
 */
final class SameSite {
    private static final List<String> OWN_FETCH_SITES = List.of("same-origin", "none");
    private static final List<String> READ_FETCH_SITES = List.of("same-origin", "same-site", "none", "a navigation");
    private static final Pattern BRACKETED = Pattern.compile("^\\[([^\\]]*)](?::\\d*)?$");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private final Set<String> names = new LinkedHashSet<>();

    SameSite(List<String> extraNames) {
        names.add("localhost");
        names.add(machineName());
        for (String name : extraNames) names.add(name.toLowerCase());
    }

    void check(String method, Headers headers) {
        String host = headers.getFirst("Host");
        if (host != null && !isOwn(host)) {
            List<String> allowed = new ArrayList<>(List.of("an IP address", "localhost"));
            for (String name : names) if (!name.equals("localhost")) allowed.add(name);
            throw HttpError.forbidden("Host " + Json.write(host) + " is not one of this server's names", allowed);
        }
        String site = headers.getFirst("Sec-Fetch-Site");
        if (method.equals("GET") || method.equals("HEAD")) {
            if ("cross-site".equals(site) && !isNavigation(headers)) {
                throw HttpError.forbidden("a " + method + " from another site's page (Sec-Fetch-Site cross-site) is refused; follow a link or type the address", READ_FETCH_SITES);
            }
            return;
        }
        String origin = headers.getFirst("Origin");
        if (origin != null && !origin.equalsIgnoreCase("http://" + host)) {
            throw HttpError.forbidden("a " + method + " from another site's page (Origin " + Json.write(origin) + ") is refused", List.of("Origin http://" + host, "no Origin"));
        }
        if (site != null && !OWN_FETCH_SITES.contains(site)) {
            throw HttpError.forbidden("a " + method + " from another site's page (Sec-Fetch-Site " + site + ") is refused", OWN_FETCH_SITES);
        }
    }

    private static boolean isNavigation(Headers headers) {
        String dest = headers.getFirst("Sec-Fetch-Dest");
        return "navigate".equals(headers.getFirst("Sec-Fetch-Mode")) && (dest == null || dest.equals("document"));
    }

    private boolean isOwn(String host) {
        String name = nameOf(host);
        return isIpLiteral(name) || name.equals("localhost") || name.endsWith(".localhost") || names.contains(name);
    }

    /** A Host header's name, without its port and an IPv6 literal's brackets, lower case. */
    static String nameOf(String host) {
        Matcher bracketed = BRACKETED.matcher(host);
        if (bracketed.matches()) return bracketed.group(1).toLowerCase();
        return host.replaceFirst(":\\d*$", "").toLowerCase();
    }

    /** An address no DNS answer can rebind: dotted IPv4, or an IPv6 literal (hex digits, colons, dots). */
    static boolean isIpLiteral(String name) {
        Matcher v4 = IPV4.matcher(name);
        if (v4.matches()) {
            for (int i = 1; i <= 4; i++) if (Integer.parseInt(v4.group(i)) > 255) return false;
            return true;
        }
        return name.indexOf(':') >= 0 && name.chars().allMatch(c -> Character.isDigit(c) || (c >= 'a' && c <= 'f') || c == ':' || c == '.');
    }

    /** The kernel's name for this machine, as Node's os.hostname() reads it: no DNS lookup that could hang. */
    private static String machineName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim().toLowerCase();
            if (!name.isEmpty()) return name;
        } catch (Exception ignored) {
            // not Linux: fall through
        }
        String env = System.getenv("HOSTNAME");
        return env == null || env.isEmpty() ? "localhost" : env.toLowerCase();
    }
}
