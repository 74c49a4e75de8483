package io.quiver.tools.http.internal;

import io.quiver.lib.config.Max;
import io.quiver.lib.config.Min;
import io.quiver.lib.config.OneOf;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of the web fetch tool (PID {@code io.quiver.tools.http}, {@code etc/io.quiver.tools.http.cfg}),
 * the single source of their defaults. They apply to the running server when the file changes; a value
 * that is not valid keeps the last good one and is listed as a problem. With no allowed host the tool is
 * not registered at all.
 */
@ObjectClassDefinition(name = "Quiver web fetch",
        description = "The fetch tool: which hosts and addresses it may reach, and its size and time limits."
                + " Off (not listed) until allowedHosts names a host.")
public @interface FetchConfig {

    /** The configuration PID. */
    String PID = "io.quiver.tools.http";

    @AttributeDefinition(name = "Allowed hosts", description = "The hosts fetch may ask for, also after a redirect:"
            + " exact names (docs.example.com), globs (*.example.com: its subdomains, not example.com itself;"
            + " * alone: any host), IP addresses (192.0.2.7, [2001:db8::7]), each optionally with :port."
            + " Empty: the tool is off")
    String[] allowedHosts() default {};

    @AttributeDefinition(name = "Allow private addresses", description = "Also reach hosts that resolve to"
            + " private, loopback, link-local, unique-local or reserved addresses (never multicast or 0.0.0.0)."
            + " Prefer allowedAddresses, which opens only the ranges named")
    boolean allowPrivateAddresses() default false;

    @AttributeDefinition(name = "Allowed addresses", description = "Private, loopback, link-local, unique-local"
            + " or reserved addresses fetch may reach all the same, as addresses or CIDR ranges"
            + " (127.0.0.1/32, 10.20.0.0/16, fd12:3456::/48). Public addresses need no entry")
    String[] allowedAddresses() default {};

    @AttributeDefinition(name = "Maximum body size", description = "The most bytes of a response body read"
            + " (after gzip or deflate decoding); what happens past it is overLimit")
    @Min(1024)
    @Max(256L << 20)
    long maxBytes() default 5L << 20;

    @AttributeDefinition(name = "Over the limit", description = "A body longer than maxBytes is refused (an"
            + " error, nothing returned) or truncated (the first maxBytes are converted and returned, and the result"
            + " says it was cut). Binary bodies over the limit are always refused")
    @OneOf({"refuse", "truncate"})
    String overLimit() default "refuse";

    @AttributeDefinition(name = "Maximum binary size", description = "The largest binary body (an image, a PDF)"
            + " returned, base64-encoded, as an embedded resource; larger ones are refused. Keep it under the"
            + " server's maxOutputBytes (io.quiver.core) times 3/4")
    @Min(0)
    @Max(256L << 20)
    long maxBinaryBytes() default 512L << 10;

    @AttributeDefinition(name = "Time limit", description = "The whole fetch, redirects included (ms): name"
            + " lookups, connecting, TLS, waiting and reading. The server's own tool time limit (toolTimeoutMs,"
            + " 60 s by default) applies too")
    @Min(100)
    @Max(600_000)
    int timeoutMs() default 30_000;

    @AttributeDefinition(name = "Maximum redirects", description = "Redirects followed, each checked against the"
            + " allowed hosts and addresses like the first request; 0 follows none")
    @Min(0)
    @Max(20)
    int maxRedirects() default 5;

    @AttributeDefinition(name = "User-Agent", description = "The User-Agent header of every request")
    String userAgent() default "Quiver-Fetch/1.0 (MCP fetch tool; autonomous)";
}
