package io.quiver.core.internal.pipeline;

import io.quiver.api.call.CallEvent;
import io.quiver.api.call.CallListener;
import io.quiver.api.call.CallPolicy;
import io.quiver.api.call.Decision;
import io.quiver.api.call.HostChannel;
import io.quiver.core.internal.catalog.RankedRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The call SPIs other bundles provide, as the pipeline uses them: the highest-ranked {@link CallPolicy}
 * and {@link HostChannel} (ranked like the catalog's services; none: allow everything, no host) and
 * every {@link CallListener}. The wiring adds and removes them as their services come and go; a call
 * reads the ones in place when it gets to the stage that uses them.
 */
public final class Extensions {

    /** The one key both registries rank their services under. */
    private static final String THE = "";

    private final RankedRegistry<CallPolicy> policies = new RankedRegistry<>();
    private final RankedRegistry<HostChannel> hosts = new RankedRegistry<>();
    private final List<CallListener> listeners = new CopyOnWriteArrayList<>();
    /** Those of them that hear calls before their tools run too (they implement {@code running}). */
    private final List<CallListener> runningListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<HostChannel>> hostGone = new CopyOnWriteArrayList<>();
    private volatile boolean policyRequired;
    private volatile boolean hostRequired;

    /**
     * The policy in force, or {@code null}: everything is allowed. While a required policy is not there yet (the
     * server still starting, {@link #policyRequired}), one that allows nothing.
     */
    public CallPolicy policy() {
        CallPolicy policy = policies.snapshot().get(THE);
        return policy == null && policyRequired ? NOT_IN_FORCE : policy;
    }

    /** The policy of a server whose own has not come yet: nothing is seen or used. */
    private static final CallPolicy NOT_IN_FORCE =
            (caller, target) -> Decision.deny("the server's call policy is not in force (the server is starting, or the"
                    + " bundle that brings it stopped)");

    /**
     * Whether the server's platform brings a call policy (the launcher's features do: the permissions bundle): until
     * it is registered nothing is allowed, rather than everything.
     */
    public void policyRequired(boolean required) {
        this.policyRequired = required;
    }

    /** Whether a required policy is missing: nothing is allowed until one is registered. */
    public boolean policyMissing() {
        return policy() == NOT_IN_FORCE;
    }

    /** The host channel, or {@code null}: no host takes part. */
    public HostChannel host() {
        return hosts.snapshot().get(THE);
    }

    /**
     * Whether the embedder declared a host channel: then a call with no channel in place (the framework
     * still starting, the channel gone) is refused rather than run unseen.
     */
    public boolean hostRequired() {
        return hostRequired;
    }

    public void hostRequired(boolean required) {
        this.hostRequired = required;
    }

    /** Everyone who hears call events (often none). */
    public List<CallListener> listeners() {
        return listeners;
    }

    public void addPolicy(CallPolicy service, int ranking, long serviceId) {
        policies.put(new RankedRegistry.Entry<>(THE, serviceId, ranking, service));
    }

    public void removePolicy(long serviceId) {
        policies.remove(serviceId);
    }

    public void addHost(HostChannel service, int ranking, long serviceId) {
        hosts.put(new RankedRegistry.Entry<>(THE, serviceId, ranking, service));
    }

    /** The host channel of a service is gone: it takes part in no call from now on, and no wait on it goes on. */
    public void removeHost(long serviceId) {
        RankedRegistry.Entry<HostChannel> entry = hosts.entry(serviceId);
        hosts.remove(serviceId);
        if (entry != null) {
            hostGone.forEach(listener -> listener.accept(entry.value()));
        }
    }

    /** Whether a host channel is registered still (in force, or ranked below the one that is). */
    public boolean hostPresent(HostChannel host) {
        RankedRegistry.Snapshot<HostChannel> now = hosts.snapshot();
        return now.winners().values().stream().anyMatch(e -> e.value() == host)
                || now.shadowed().stream().anyMatch(e -> e.value() == host);
    }

    /** Tells {@code listener} of each host channel that goes (the pipeline ends the waits on it). */
    public void onHostGone(Consumer<HostChannel> listener) {
        hostGone.add(listener);
    }

    /** Those who hear a call before its tool runs (often none): the others keep the interface's empty default. */
    public List<CallListener> runningListeners() {
        return runningListeners;
    }

    public void addListener(CallListener service) {
        listeners.add(service);
        if (hearsRunning(service)) {
            runningListeners.add(service);
        }
    }

    public void removeListener(CallListener service) {
        listeners.remove(service);
        runningListeners.remove(service);
    }

    /** Whether a listener implements {@link CallListener#running}: no event is made for one that does not. */
    static boolean hearsRunning(CallListener listener) {
        try {
            return listener.getClass().getMethod("running", CallEvent.class).getDeclaringClass() != CallListener.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
