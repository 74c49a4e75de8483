package io.quiver.core.internal.pipeline;

import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Stage 4: the host channel's say before the tool runs. It approves (the call goes on), approves with
 * edited arguments (validated again: invalid ones fail the call), or denies (an error result with its
 * reason, the tool never runs). Without a host channel every valid call is admitted. A host that fails
 * denies, so a broken host never lets a call through unseen.
 */
final class Admit {

    private static final Logger LOG = LoggerFactory.getLogger(Admit.class);

    private final Extensions extensions;
    private final Validate validate;

    Admit(Extensions extensions, Validate validate) {
        this.extensions = extensions;
        this.validate = validate;
    }

    /** {@code null} when the call may run; else the result it answers with. */
    CallToolResult admit(Call call) {
        HostChannel host = extensions.host();
        if (host == null) {
            return null;
        }
        call.askedToAdmit(host);
        Admission admission;
        try {
            admission = call.askHost(() -> host.admit(call.invocation()));
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.error("The host channel failed to admit {} ({}); denied", call.name(), call.scope().invocationId(), e);
            admission = null;
        }
        if (admission instanceof Admission.Approve approve) {
            if (approve.arguments() == null) {
                call.step("admit", true, "approved by the host");
                return null;
            }
            call.step("admit", true, "approved by the host with edited arguments");
            call.arguments(Json.MAPPER.valueToTree(approve.arguments()));
            return validate.revalidate(call);
        }
        String reason = admission instanceof Admission.Deny deny && deny.reason() != null && !deny.reason().isBlank()
                ? deny.reason() : "The host did not admit the call.";
        call.step("admit", false, reason);
        call.end(CallEvent.Ending.DENIED, reason);
        return CallToolResult.error("The call of " + call.name() + " was not admitted: " + reason);
    }
}
