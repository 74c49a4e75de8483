package io.quiver.core.internal.pipeline;

import io.quiver.api.call.Admission;
import io.quiver.api.call.CallEvent;
import io.quiver.api.call.HostChannel;
import io.quiver.core.internal.json.Json;
import io.quiver.core.internal.messages.CallToolResult;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 4: the host channel's say before the tool runs. The host is told the call began (with a way to
 * stop it), then approves (the call goes on), approves with edited arguments (validated again: invalid
 * ones fail the call), or denies (an error result with its reason, the tool never runs); then the
 * prepared call waits until the host releases it. Without a host channel every valid call is admitted
 * and released at once. A host that fails or does not answer in time denies, so a broken host never
 * lets a call through unseen.
 */
final class Admit {

    private static final Logger LOG = LoggerFactory.getLogger(Admit.class);

    private final Extensions extensions;
    private final Validate validate;
    private final HostWait wait;

    Admit(Extensions extensions, Validate validate, HostWait wait) {
        this.extensions = extensions;
        this.validate = validate;
        this.wait = wait;
    }

    /** {@code null} when the call may run; else the result it answers with. */
    CallToolResult admit(Call call) {
        HostChannel host = extensions.host();
        if (host == null) {
            return extensions.hostRequired() ? deny(call, "The host application is not connected.") : null;
        }
        if (NonBlocking.here()) {
            // the host channel came while this call started on a thread that must not wait for it
            return deny(call, "The host application connected while the call was starting; call it again.");
        }
        call.askedToAdmit(host);
        try {
            host.begin(call.invocation(), reason -> call.scope().stop(reason));
        } catch (RuntimeException e) {
            LOG.error("The host channel failed to hear of {} ({}); denied", call.name(), call.scope().invocationId(), e);
            return deny(call, "The host failed.");
        }
        Admission admission;
        try {
            admission = wait.ask(call, "admit the call", () -> host.admit(call.invocation()));
        } catch (CancellationException e) {
            throw e;
        } catch (HostWait.HostTimeout e) {
            LOG.warn("Call of {} ({}) denied: {}", call.name(), call.scope().invocationId(), e.getMessage());
            return deny(call, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("The host channel failed to admit {} ({}); denied", call.name(), call.scope().invocationId(), e);
            // as when it fails to hear of the call: a failure, not a refusal (its message stays in the log)
            return deny(call, "The host failed.");
        }
        if (admission instanceof Admission.Approve approve) {
            if (approve.arguments() == null) {
                call.step("admit", true, "approved by the host");
                return released(call, host);
            }
            call.step("admit", true, "approved by the host with edited arguments");
            call.arguments(Json.MAPPER.valueToTree(approve.arguments()));
            CallToolResult invalid = validate.revalidate(call);
            return invalid != null ? invalid : released(call, host);
        }
        return deny(call, admission instanceof Admission.Deny deny && deny.reason() != null && !deny.reason().isBlank()
                ? deny.reason() : "The host did not admit the call.");
    }

    /** The admitted call waits for the host's release: {@code null} when it may run. */
    private CallToolResult released(Call call, HostChannel host) {
        boolean released;
        try {
            released = wait.ask(call, "release the call", () -> host.awaitRelease(call.invocation()));
        } catch (CancellationException e) {
            throw e;
        } catch (HostWait.HostTimeout e) {
            LOG.warn("Call of {} ({}) not released: {}", call.name(), call.scope().invocationId(), e.getMessage());
            return refuse(call, "release", e.getMessage(), "was not released");
        } catch (RuntimeException e) {
            LOG.error("The host channel failed to release {} ({})", call.name(), call.scope().invocationId(), e);
            released = false;
        }
        if (!released) {
            return refuse(call, "release", "The host did not release the call.", "was not released");
        }
        call.step("release", true, "released by the host");
        return null;
    }

    private static CallToolResult deny(Call call, String reason) {
        return refuse(call, "admit", reason, "was not admitted");
    }

    private static CallToolResult refuse(Call call, String stage, String reason, String how) {
        call.step(stage, false, reason);
        call.end(CallEvent.Ending.DENIED, reason);
        return CallToolResult.error("The call of " + call.name() + " " + how + ": " + reason);
    }
}
