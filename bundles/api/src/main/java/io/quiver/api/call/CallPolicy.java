package io.quiver.api.call;

import io.quiver.api.CallerIdentity;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Decides what a caller may see and use. One decision serves every list ({@code tools/list},
 * {@code resources/list}, {@code resources/templates/list}, {@code prompts/list}) and every use
 * ({@code tools/call}, {@code resources/read}, {@code prompts/get}), so a caller never sees what it
 * cannot use nor uses what it cannot see: what is denied is, for that caller, not there at all (a
 * call names an unknown tool). Registered as a service; the highest-ranked one decides. Without one,
 * everything is allowed, unless the platform requires one (the launcher's features bring the permissions
 * bundle's): then nothing is, until one is registered.
 *
 * <p>Called on every list and every call, and for a call more than once (before it waits for its
 * tool's share, so a caller cannot queue up behind a tool it cannot see, and again when it runs):
 * decide from the caller and the target alone, keep it fast and free of I/O (precompute from
 * configuration): it may run on the thread that read the request from its connection. The decision
 * a call ran under is in its {@link CallEvent}.
 */
@ConsumerType
public interface CallPolicy {

    Decision decide(CallerIdentity caller, Target target);
}
