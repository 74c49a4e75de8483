package io.quiver.tools.http.internal;

import io.quiver.lib.config.TypedConfig;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings in force, checked and compiled: which hosts may be asked for, which addresses reached, and
 * the limits. Immutable; a configuration change makes a new one.
 *
 * @param hosts the allowed hosts (entries that were no host are left out and reported)
 * @param addresses the private (or other non-public) ranges allowed all the same
 * @param problems what was wrong with entries of the lists, one line each
 */
record Policy(List<HostPattern> hosts, boolean allowPrivateAddresses, List<AddressRange> addresses, long maxBytes,
        boolean truncate, long maxBinaryBytes, int timeoutMs, int maxRedirects, String userAgent,
        List<String> problems) {

    /** The default User-Agent, used when the configured one would break the request. */
    static final String DEFAULT_USER_AGENT = TypedConfig.defaults(FetchConfig.class).userAgent();

    /** The policy of a configuration. */
    static Policy of(FetchConfig config) {
        List<String> problems = new ArrayList<>();
        List<HostPattern> hosts = new ArrayList<>();
        for (String entry : TypedConfig.list(config.allowedHosts())) {
            HostPattern pattern = HostPattern.parse(entry);
            if (pattern == null) {
                problems.add("allowedHosts entry '" + entry + "' is not a host name, glob or IP address (with an"
                        + " optional :port); it is left out");
            } else {
                hosts.add(pattern);
            }
        }
        List<AddressRange> ranges = new ArrayList<>();
        for (String entry : TypedConfig.list(config.allowedAddresses())) {
            AddressRange range = AddressRange.parse(entry);
            if (range == null) {
                problems.add("allowedAddresses entry '" + entry + "' is not an IP address or CIDR range; it is left out");
            } else {
                ranges.add(range);
            }
        }
        String agent = config.userAgent().trim();
        if (agent.isEmpty() || !agent.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            problems.add("userAgent must be printable ASCII on one line; using '" + DEFAULT_USER_AGENT + "'");
            agent = DEFAULT_USER_AGENT;
        }
        return new Policy(List.copyOf(hosts), config.allowPrivateAddresses(), List.copyOf(ranges), config.maxBytes(),
                config.overLimit().equals("truncate"), config.maxBinaryBytes(), config.timeoutMs(),
                config.maxRedirects(), agent, List.copyOf(problems));
    }

    /** Whether the tool has anything to fetch. */
    boolean enabled() {
        return !hosts.isEmpty();
    }

    /** Whether the allow-list lets a URL's host and port be asked for. */
    boolean allowsHost(String host, int port) {
        String h = HostPattern.normalize(host);
        InetAddress literal = Addresses.literal(h);
        return hosts.stream().anyMatch(p -> p.allows(h, literal, port));
    }

    /** Why an address may not be reached, or {@code null} when it may. */
    String refusal(InetAddress address) {
        Addresses.Kind kind = Addresses.classify(address);
        if (kind == Addresses.Kind.PUBLIC) {
            return null;
        }
        if (kind.never()) {
            return Addresses.text(address) + " is " + kind.words + ", which is never fetched";
        }
        if (allowPrivateAddresses || addresses.stream().anyMatch(r -> r.contains(address))) {
            return null;
        }
        return Addresses.text(address) + " is " + kind.words + ", and private, loopback, link-local, unique-local"
                + " and reserved addresses are not fetched unless the operator allows them (allowedAddresses,"
                + " allowPrivateAddresses)";
    }

    /** The allowed hosts as the model may read them (the first few). */
    String hostsText() {
        List<String> shown = hosts.stream().limit(12).map(HostPattern::toString).toList();
        return String.join(", ", shown) + (hosts.size() > shown.size() ? ", ..." : "");
    }
}
