package io.quiver.core.internal.pipeline;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.quiver.api.call.HostChannel;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import io.quiver.core.internal.catalog.BoundedRegularExpressions;
import io.quiver.core.internal.json.Json;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host channel's chance to answer a tool's input request before the client is asked. An accepted
 * form is checked against the form's schema: an answer that does not fit is asked for once more, and a
 * second that does not fit fails the call (the tool never gets it). A host that fails (throws) fails the call and is
 * logged, as one that does not answer in time: the client is asked only when the host leaves the question to it. Answers are never
 * logged nor put in the call's decisions, only the key they answer.
 */
final class HostAnswers {

    private static final Logger LOG = LoggerFactory.getLogger(HostAnswers.class);
    /** How often the host is asked for an answer that fits the form. */
    private static final int ASKS = 2;

    /**
     * The registry forms' schemas compile in, made at the first answer to check: its dialect's classes
     * take tens of milliseconds to initialise, which the engine's activation (the server's start)
     * would otherwise wait for.
     */
    private static final class Forms {
        static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemaRegistryConfig(BoundedRegularExpressions.CONFIG));
    }

    private final HostWait wait;

    HostAnswers(HostWait wait) {
        this.wait = wait;
    }

    /** What the host answers for this call, or {@code null} when no host took part in it. */
    Function<InputRequest, Optional<InputResponse>> of(Call call) {
        HostChannel host = call.host();
        if (host == null) {
            return null;
        }
        return request -> {
            String problem = null;
            for (int ask = 1; ask <= ASKS; ask++) {
                Optional<InputResponse> answer;
                try {
                    answer = wait.ask(call, "answer " + request.key(), () -> host.answer(call.invocation(), request));
                } catch (CancellationException | HostWait.Failed e) {
                    throw e;
                } catch (RuntimeException e) {
                    // not asked of the client instead: the question was the host's (it may be its user's secret), and
                    // only the host's own leaveToClient() hands it on
                    LOG.error("The host channel failed to answer {} of {} ({})", request.key(), call.name(),
                            call.scope().invocationId(), e);
                    throw new HostWait.Failed("The host failed to answer " + request.key() + ".");
                }
                if (answer == null || answer.isEmpty()) {
                    return Optional.empty();
                }
                problem = misfit(request, answer.get());
                if (problem == null) {
                    call.step("input", true, "the host answered " + request.key());
                    return answer;
                }
                call.step("input", false, "the host's answer to " + request.key() + " does not fit the form: " + problem);
            }
            throw new HostWait.Failed("The host's answers to " + request.key() + " did not fit the form: " + problem);
        };
    }

    /** Why an accepted form does not fit its schema, or {@code null}: it fits (or is no form). */
    static String misfit(InputRequest request, InputResponse answer) {
        if (!(request instanceof InputRequest.Elicitation form)
                || !(answer instanceof InputResponse.Elicited elicited) || !elicited.accepted()) {
            return answer instanceof InputResponse.Elicited e && !List.of("accept", "decline", "cancel").contains(e.action())
                    ? "the action must be accept, decline or cancel" : null;
        }
        Schema schema;
        try {
            schema = Forms.REGISTRY.getSchema(Json.MAPPER.valueToTree(form.requestedSchema()));
        } catch (RuntimeException e) {
            return null; // the tool's form is its own business: the client would have been shown it as it is
        }
        // the messages name the failing keyword and location, never the submitted value
        List<Error> errors = schema.validate(Json.MAPPER.valueToTree(elicited.content()));
        return errors.isEmpty() ? null
                : errors.stream().limit(3).map(e -> e.getInstanceLocation() + " " + e.getKeyword()).collect(Collectors.joining("; "));
    }
}
