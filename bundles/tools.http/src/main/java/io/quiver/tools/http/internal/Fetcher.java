package io.quiver.tools.http.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;

/**
 * Fetches a URL under a {@link Policy}: every hop (the URL, then each redirect, followed here and never by
 * a library) is checked against the allowed hosts, its name is resolved here, every address it resolves to
 * is checked, and the connection goes to one of those checked addresses ({@link Http11}), so a name that
 * resolves differently a moment later (DNS rebinding) cannot lead anywhere unchecked.
 */
final class Fetcher {

    /** Looks a host name up: every address it has. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Why a fetch did not return a body, in words for the model. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;
        /** Refused by the policy (as opposed to a failure of the network or the server). */
        final boolean refused;

        Failure(String message, boolean refused) {
            super(message, null, false, false);
            this.refused = refused;
        }
    }

    /**
     * A fetched body.
     *
     * @param url the URL the body came from (after redirects)
     * @param redirects the URLs that redirected, in order (empty when none did)
     * @param contentType the {@code Content-Type} header, or {@code null}
     * @param cut whether the body went on past {@code maxBytes} and was cut there ({@code overLimit = truncate})
     */
    record Fetched(URI url, List<URI> redirects, int status, String contentType, byte[] body, boolean cut) {
    }

    private static final String ACCEPT = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,"
            + "application/json;q=0.9,*/*;q=0.8";

    private final Resolver resolver;
    private final SSLSocketFactory tls;

    Fetcher(Resolver resolver, SSLSocketFactory tls) {
        this.resolver = resolver;
        this.tls = tls;
    }

    /** With the system's name service and the JVM's default TLS settings (trust store, protocols). */
    static Fetcher standard() {
        return new Fetcher(InetAddress::getAllByName, (SSLSocketFactory) SSLSocketFactory.getDefault());
    }

    /**
     * Fetches a URL.
     *
     * @param cancelled whether the call was cancelled (checked before every wait)
     */
    Fetched fetch(URI url, Policy policy, BooleanSupplier cancelled) throws Failure {
        Deadline deadline = new Deadline(policy.timeoutMs(), cancelled);
        List<URI> redirects = new ArrayList<>();
        URI current = url;
        try {
            while (true) {
                Hop hop = hop(current, redirects, policy);
                List<InetAddress> addresses = addresses(hop, redirects, policy, deadline);
                Http11 connection = connect(hop, addresses, deadline);
                try {
                    Map<String, String> headers = new LinkedHashMap<>();
                    headers.put("User-Agent", policy.userAgent());
                    headers.put("Accept", ACCEPT);
                    headers.put("Accept-Encoding", "gzip");
                    Http11.Head head = connection.get(hop.target(), hop.hostHeader(), headers);
                    int status = head.status();
                    String location = head.header("Location");
                    if (status >= 300 && status < 400 && status != 304 && location != null) {
                        if (redirects.size() >= policy.maxRedirects()) {
                            throw new Failure(where(current, redirects) + " redirects again, and the most redirects"
                                    + " followed is " + policy.maxRedirects() + " (maxRedirects)", true);
                        }
                        redirects.add(current);
                        current = next(current, location, redirects);
                        continue;
                    }
                    if (status < 200 || status > 299) {
                        throw new Failure("Failed to fetch " + where(current, redirects) + ": the server answered HTTP "
                                + status + (head.reason().isEmpty() ? "" : " " + head.reason()), false);
                    }
                    return read(connection, head, current, redirects, policy);
                } finally {
                    connection.close();
                }
            }
        } catch (Deadline.TimedOut e) {
            throw new Failure("Failed to fetch " + where(current, redirects) + ": no complete answer within "
                    + policy.timeoutMs() + " ms (timeoutMs)", false);
        } catch (Deadline.Cancelled e) {
            throw new Failure("The fetch of " + where(current, redirects) + " was cancelled", false);
        } catch (SSLException e) {
            throw new Failure("Failed to fetch " + where(current, redirects) + ": the TLS connection failed ("
                    + e.getMessage() + ")", false);
        } catch (IOException e) {
            throw new Failure("Failed to fetch " + where(current, redirects) + ": " + e.getMessage(), false);
        }
    }

    /** One request: where it goes. */
    private record Hop(URI url, boolean secure, String host, int port, String target, String hostHeader) {
    }

    /** Checks a URL's form and its host against the allow-list. */
    private static Hop hop(URI url, List<URI> redirects, Policy policy) throws Failure {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        String from = redirects.isEmpty() ? "" : redirected(redirects) + ", ";
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new Failure("Refused: " + from + url + " is not an http or https URL", true);
        }
        if (url.getRawUserInfo() != null) {
            throw new Failure("Refused: " + from + "the URL carries a user name or password; fetch sends no"
                    + " credentials", true);
        }
        String host = url.getHost();
        if (host == null || host.isEmpty()) {
            throw new Failure("Refused: " + from + url + " has no host name Quiver can read (write"
                    + " internationalized names in their xn-- form)", true);
        }
        boolean secure = scheme.equals("https");
        int port = url.getPort() >= 0 ? url.getPort() : secure ? 443 : 80;
        if (port == 0) {
            throw new Failure("Refused: " + from + url + " names port 0", true);
        }
        if (!policy.allowsHost(host, port)) {
            throw new Failure("Refused: " + from + "the host " + HostPattern.normalize(host)
                    + (url.getPort() >= 0 ? ":" + port : "") + " is not allowed. The hosts this server may fetch"
                    + " from are: " + policy.hostsText() + " (allowedHosts, set by the server's operator)", true);
        }
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String target = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        String hostHeader = url.getPort() >= 0 && port != (secure ? 443 : 80) ? host + ":" + port : host;
        return new Hop(url, secure, host, port, target, hostHeader);
    }

    /** Resolves a hop's host here, once, and checks every address. */
    private List<InetAddress> addresses(Hop hop, List<URI> redirects, Policy policy, Deadline deadline)
            throws Failure, IOException {
        String name = HostPattern.normalize(hop.host());
        InetAddress literal = Addresses.literal(name);
        List<InetAddress> addresses = literal != null ? List.of(literal) : resolve(name, deadline);
        String from = redirects.isEmpty() ? "" : redirected(redirects) + ", ";
        for (InetAddress address : addresses) {
            String refusal = policy.refusal(address);
            if (refusal != null) {
                throw new Failure("Refused: " + from + (literal != null ? "" : "the host " + name + " resolves to "
                        + addresses.stream().map(Addresses::text).toList() + "; ") + refusal, true);
            }
        }
        return addresses;
    }

    private List<InetAddress> resolve(String name, Deadline deadline) throws Failure, IOException {
        // The system resolver has no time limit of its own: it runs on a thread of its own, waited for only as
        // long as the fetch has left (a lookup that outlives it ends in the background).
        CompletableFuture<InetAddress[]> lookup = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                lookup.complete(resolver.resolve(name));
            } catch (Throwable e) {
                lookup.completeExceptionally(e);
            }
        }, "quiver-fetch-lookup");
        thread.setDaemon(true);
        thread.start();
        try {
            InetAddress[] found = lookup.get(deadline.remainingMillis(), TimeUnit.MILLISECONDS);
            if (found == null || found.length == 0) {
                throw new Failure("Failed to fetch: the host " + name + " has no address", false);
            }
            return List.copyOf(Arrays.asList(found));
        } catch (TimeoutException e) {
            throw new Deadline.TimedOut();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Deadline.Cancelled();
        } catch (ExecutionException e) {
            throw new Failure("Failed to fetch: the host " + name + " is unknown (" + e.getCause().getMessage() + ")",
                    false);
        }
    }

    /** Connects to the first of the checked addresses that answers. */
    private Http11 connect(Hop hop, List<InetAddress> addresses, Deadline deadline) throws IOException {
        IOException failed = null;
        for (InetAddress address : addresses) {
            try {
                return Http11.connect(address, hop.port(), hop.host(), hop.secure() ? tls : null, deadline);
            } catch (Deadline.TimedOut | Deadline.Cancelled | SSLException e) {
                throw e;
            } catch (IOException e) {
                failed = e;
            }
        }
        throw new IOException("could not connect to " + HostPattern.normalize(hop.host()) + " port " + hop.port()
                + (failed == null || failed.getMessage() == null ? "" : " (" + failed.getMessage() + ")"));
    }

    private static Fetched read(Http11 connection, Http11.Head head, URI url, List<URI> redirects, Policy policy)
            throws IOException, Failure {
        long limit = policy.maxBytes();
        InputStream body;
        try {
            body = connection.body(2 * limit + 65_536);
        } catch (IOException e) {
            throw new Failure("Failed to fetch " + where(url, redirects) + ": " + e.getMessage(), false);
        }
        long declared = connection.declaredLength();
        if (declared > limit && !policy.truncate()) {
            throw tooLarge(url, redirects, policy, "the server declared " + declared + " bytes");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 16_384), limit));
        byte[] buffer = new byte[16_384];
        boolean cut = false;
        try {
            while (true) {
                int n = body.read(buffer, 0, (int) Math.min(buffer.length, limit + 1 - bytes.size()));
                if (n < 0) {
                    break;
                }
                bytes.write(buffer, 0, n);
                if (bytes.size() > limit) {
                    if (!policy.truncate()) {
                        throw tooLarge(url, redirects, policy, "more than that was sent; reading stopped there");
                    }
                    cut = true;
                    break;
                }
            }
        } catch (Http11.BodyTooLarge e) {
            if (!policy.truncate()) {
                throw tooLarge(url, redirects, policy, "its compressed form alone is larger than " + (2 * limit + 65_536)
                        + " bytes");
            }
            cut = true;
        }
        byte[] data = bytes.toByteArray();
        if (cut && data.length > limit) {
            data = Arrays.copyOf(data, (int) limit);
        }
        return new Fetched(url, List.copyOf(redirects), head.status(), head.header("Content-Type"), data, cut);
    }

    private static Failure tooLarge(URI url, List<URI> redirects, Policy policy, String detail) {
        return new Failure("Refused: the response of " + where(url, redirects) + " is larger than the limit of "
                + policy.maxBytes() + " bytes (maxBytes; " + detail + "). Nothing of it is returned.", true);
    }

    /** The next URL: a redirect's Location resolved against the URL that sent it, without a fragment. */
    private static URI next(URI from, String location, List<URI> redirects) throws Failure {
        try {
            URI base = from.getRawPath() == null || from.getRawPath().isEmpty() ? from.resolve("/") : from;
            URI to = base.resolve(new URI(location.trim()));
            return withoutFragment(to);
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new Failure("Failed to fetch: " + redirected(redirects) + " to '" + location
                    + "', which is not a valid URL", false);
        }
    }

    /** The URL of a request, with the URL the redirects began at. */
    private static String where(URI url, List<URI> redirects) {
        return redirects.isEmpty() ? url.toString() : url + " (redirected from " + redirects.get(0) + ")";
    }

    /** {@code <url> redirected}: the last URL that redirected. */
    private static String redirected(List<URI> redirects) {
        return redirects.get(redirects.size() - 1) + " redirected";
    }

    /**
     * A URL from the model's argument: absolute {@code http} or {@code https}, in its ASCII form, without a
     * fragment.
     */
    static URI parse(String text) throws Failure {
        try {
            URI url = new URI(text.trim());
            if (!url.isAbsolute() || url.isOpaque()) {
                throw new Failure("'" + text + "' is not an absolute URL (e.g. https://example.com/page)", true);
            }
            return withoutFragment(url);
        } catch (URISyntaxException e) {
            throw new Failure("'" + text + "' is not a valid URL: " + e.getReason(), true);
        }
    }

    /** A URL in its ASCII form (non-ASCII characters percent-encoded), without its fragment. */
    private static URI withoutFragment(URI url) throws URISyntaxException {
        String ascii = url.toASCIIString();
        int hash = ascii.indexOf('#');
        return new URI(hash < 0 ? ascii : ascii.substring(0, hash));
    }
}
