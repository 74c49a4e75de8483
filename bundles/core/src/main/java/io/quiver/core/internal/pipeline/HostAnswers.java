package io.quiver.core.internal.pipeline;

import io.quiver.api.call.HostChannel;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host channel's chance to answer a tool's input request before the client is asked. A host that
 * fails is logged and the client is asked, as without a host.
 */
final class HostAnswers {

    private static final Logger LOG = LoggerFactory.getLogger(HostAnswers.class);

    /** What the host answers for this call, or {@code null} when no host took part in it. */
    Function<InputRequest, Optional<InputResponse>> of(Call call) {
        HostChannel host = call.host();
        if (host == null) {
            return null;
        }
        return request -> {
            try {
                Optional<InputResponse> answer = call.askHost(() -> host.answer(call.invocation(), request));
                if (answer != null && answer.isPresent()) {
                    call.step("input", true, "the host answered " + request.key());
                    return answer;
                }
            } catch (CancellationException e) {
                throw e;
            } catch (RuntimeException e) {
                LOG.error("The host channel failed to answer {} of {} ({})", request.key(), call.name(),
                        call.scope().invocationId(), e);
            }
            return Optional.empty();
        };
    }
}
