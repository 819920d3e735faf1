package lab.jvmserializer.http

import lab.agent.Profiler
import org.eclipse.jetty.http.HttpHeader
import org.eclipse.jetty.server.Request

/**
 * POST /profile?seconds=N&intervalUs=U: what the JVM ran during a scenario, for the load driver (CONTRACT.md; the Node
 * services' node-kit/profiler.js is its twin). The JVM agent's [Profiler] (agents/jvm-agent, a dependency of this
 * build) does the rest, as on the agent's own side port: the token check (401 without `Authorization: Bearer <token>`),
 * the parameters (400), one at a time (409), the JDK Flight Recorder recording and the answer, so this service and any
 * JVM the agent is attached to are profiled by one piece of code and answer alike. The route exists where
 * LAB_PROFILE_TOKEN is set; it holds a request thread for its seconds.
 */
class ProfileRoute(token: String) {
    private val profiler = Profiler(token)

    fun handle(target: RequestTarget, request: Request): Answer {
        val answer = profiler.answer(request.headers.get(HttpHeader.AUTHORIZATION), target.queryParameters())
        // The agent writes an unpaired surrogate (a thread may be named with one) as it is; escaped as in every answer.
        return Answer(answer.status, Answer.JSON_TYPE, Answer.wellFormed(answer.json).encodeToByteArray(), answer.headers)
    }
}
