package io.quiver.auth.jwt.internal;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A key pair with a self-signed certificate for 127.0.0.1 and localhost, made by the JDK's keytool (the
 * JDK has no public API for certificates): for a loopback HTTPS server, and for certificate PEM files.
 */
record KeyToolKeys(KeyStore store) {

    static final char[] PASSWORD = "changeit".toCharArray();
    static final String ALIAS = "test";

    /** @param algorithm RSA (2048 bits) or EC (P-256) */
    static KeyToolKeys create(Path dir, String algorithm) throws Exception {
        Path file = dir.resolve("keys-" + algorithm + ".p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> command = List.of(keytool, "-genkeypair", "-alias", ALIAS, "-keyalg", algorithm,
                "-keysize", algorithm.equals("RSA") ? "2048" : "256", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD);
        }
        return new KeyToolKeys(store);
    }

    PrivateKey privateKey() throws Exception {
        return (PrivateKey) store.getKey(ALIAS, PASSWORD);
    }

    X509Certificate certificate() throws Exception {
        return (X509Certificate) store.getCertificate(ALIAS);
    }

    /** A TLS server context with this key. */
    SSLContext serverContext() throws Exception {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** A TLS client context that trusts this certificate only. */
    SSLContext clientContext() throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry(ALIAS, certificate());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
