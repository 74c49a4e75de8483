package io.quiver.tools.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * https through the pinned connection: the socket goes to the checked address, while TLS checks the
 * certificate against the URL's host name (a certificate for {@code tls.test}, made here with the JDK's
 * keytool, served on 127.0.0.1 and trusted by the test's client).
 */
class TlsTest {

    private static final char[] PASSWORD = "changeit".toCharArray();
    @TempDir
    static Path folder;
    private static TestServer server;
    private static SSLContext client;
    private static Fetcher fetcher;

    @BeforeAll
    static void start() throws Exception {
        Path store = folder.resolve("tls.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "tls", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=tls.test",
                "-ext", "SAN=dns:tls.test", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        SSLContext serverContext = SSLContext.getInstance("TLS");
        serverContext.init(kmf.getKeyManagers(), null, null);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(keys);
        client = SSLContext.getInstance("TLS");
        client.init(null, tmf.getTrustManagers(), null);
        server = new TestServer("127.0.0.1", serverContext).content("/plain", "text/plain", "over tls");
        fetcher = new Fetcher(host -> {
            if (List.of("tls.test", "other.test").contains(host)) {
                return new InetAddress[] {Addresses.literal("127.0.0.1")};
            }
            throw new UnknownHostException(host);
        }, client);
    }

    @AfterAll
    static void stop() {
        fetcher.close();
        server.close();
    }

    private static Fetcher fetcher() {
        return fetcher;
    }

    private static final Policy POLICY = PolicyTest.policy(Map.of("allowedHosts", "tls.test, other.test, 127.0.0.1",
            "allowedAddresses", "127.0.0.1/32", "timeoutMs", "10000"));

    @Test
    void theCertificateIsCheckedAgainstTheNameWhileTheSocketGoesToTheCheckedAddress() throws Exception {
        Fetcher.Fetched fetched = fetcher().fetch(Fetcher.parse("https://tls.test:" + server.port() + "/plain"),
                POLICY, () -> false);
        assertEquals("over tls", new String(fetched.body(), StandardCharsets.UTF_8));
        assertEquals("tls.test:" + server.port(), server.requests().get(0).host());
    }

    @Test
    void aCertificateForAnotherNameIsRefused() {
        int before = server.requests().size();
        for (String url : List.of("https://other.test:" + server.port() + "/plain",
                "https://127.0.0.1:" + server.port() + "/plain")) {
            Fetcher.Failure failure = assertThrows(Fetcher.Failure.class,
                    () -> fetcher().fetch(Fetcher.parse(url), POLICY, () -> false));
            assertTrue(failure.getMessage().contains("the TLS connection failed"), failure.getMessage());
            assertFalse(failure.refused);
        }
        assertEquals(before, server.requests().size(), "no request was sent over an unverified connection");
    }
}
