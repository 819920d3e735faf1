package lab.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A refusal: its status and the JSON body `{"error", ...details}` (CONTRACT.md, "Errors"), and any headers it adds. */
final class HttpError extends RuntimeException {
    final int status;
    final Map<String, Object> body = new LinkedHashMap<>();
    final Map<String, String> headers = new LinkedHashMap<>();

    HttpError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
        body.put("error", message);
    }

    HttpError with(String key, Object value) {
        body.put(key, value);
        return this;
    }

    HttpError header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    static HttpError badRequest(String message, String parameter, Object allowed) {
        return new HttpError(400, message).with("parameter", parameter).with("allowed", allowed);
    }

    static HttpError forbidden(String message, List<String> allowed) {
        return new HttpError(403, message).with("allowed", allowed);
    }
}
