package io.quiver.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * {@code quiver apikey create}: a new API key for a service account, printed once, and the
 * configuration ({@code etc/io.quiver.auth.apikey-<name>.cfg}) that makes the auth.apikeys bundle accept
 * it. The key is stored nowhere: the configuration holds only its hash.
 *
 * <p>The launcher does not depend on that bundle: the key and hash format are repeated here, and must
 * stay as the bundle reads them ({@code qvk_} and 43 base64url characters of 32 random bytes;
 * {@code sha256:} and the lowercase hex SHA-256 of the key's UTF-8 bytes).
 */
final class ApiKeyCommand {

    /** The key's lifetime when neither --expires nor --days is given. */
    static final int DEFAULT_DAYS = 90;
    /** The factory PID of API key configurations. */
    static final String FACTORY_PID = "io.quiver.auth.apikey";
    /** What every API key starts with. */
    static final String PREFIX = "qvk_";

    private final Clock clock;
    private final SecureRandom random;

    ApiKeyCommand(Clock clock, SecureRandom random) {
        this.clock = clock;
        this.random = random;
    }

    /** Runs the command with the system clock and a new {@link SecureRandom}; returns the exit status. */
    static int create(CommandLine.CreateApiKey request, PrintStream out, PrintStream err) {
        return new ApiKeyCommand(Clock.systemUTC(), new SecureRandom()).run(request, out, err);
    }

    /**
     * Prints the key and its configuration (and writes that with {@code --write}).
     *
     * @return 0 when done, 1 when the file could not be written, 2 when the expiry is not in the future
     */
    int run(CommandLine.CreateApiKey request, PrintStream out, PrintStream err) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        String expires = request.expires() != null ? request.expires()
                : now.plus(Duration.ofDays(request.days())).toString();
        if (!expiry(expires).isAfter(now)) {
            err.println("quiver: --expires " + expires + " is not in the future");
            return 2;
        }
        String key = newKey();
        String contents = contents(request, hash(key), expires, now);
        Path file = request.etc().resolve(fileName(request.name()));
        if (request.write()) {
            // written before anything is printed: a key whose file was not written is no use to anyone
            try {
                Files.createDirectories(request.etc());
                Files.writeString(file, contents, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                err.println("quiver: " + file + " already exists; not overwritten (give another --name,"
                        + " or delete that file first, which revokes its key)");
                return 1;
            } catch (IOException e) {
                err.println("quiver: cannot write " + file + ": " + e);
                return 1;
            }
        }
        out.println("API key: " + key);
        out.println();
        out.println("WARNING: this is the only time the key is shown. It is not stored anywhere (the configuration");
        out.println("below holds only its SHA-256 hash): copy it into your secret store now. A lost key cannot be");
        out.println("recovered, only replaced. Clients send it as the header: Authorization: Bearer <key>");
        out.println();
        out.println((request.write() ? "Configuration file written, " : "Configuration file to create, ") + file + ":");
        out.println();
        out.print(contents);
        out.println();
        out.println(request.write()
                ? "A running server reads it within about a second. Deleting the file revokes the key."
                : "Create that file with exactly these lines (--write does it for you); a running server reads it"
                        + "\nwithin about a second. Deleting the file revokes the key.");
        out.flush();
        return 0;
    }

    /** The configuration file's lines. */
    static String contents(CommandLine.CreateApiKey request, String hash, String expires, Instant created) {
        return "# API key of " + request.subject() + ", created " + created + " by quiver apikey create"
                + " (only its hash is stored)\n"
                + "hash = " + hash + "\n"
                + "subject = " + request.subject() + "\n"
                + "tenant = " + request.tenant() + "\n"
                + line("roles", String.join(", ", request.roles()))
                + line("scopes", String.join(", ", request.scopes()))
                + "expires = " + expires + "\n";
    }

    private static String line(String key, String value) {
        return value.isEmpty() ? key + " =\n" : key + " = " + value + "\n";
    }

    /** {@code qvk_} and 32 bytes from {@link SecureRandom}, base64url without padding (43 characters). */
    String newKey() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * {@code sha256:} and the lowercase hex SHA-256 of the key's UTF-8 bytes. A fast hash is enough: the
     * key's 256 random bits cannot be guessed, nor found from the hash.
     */
    static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** {@code io.quiver.auth.apikey-<name>.cfg}. */
    static String fileName(String name) {
        return FACTORY_PID + "-" + name + ".cfg";
    }

    /** A configuration name: lower case, every run of characters other than a-z and 0-9 one {@code -}. */
    static String sanitise(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    }

    /**
     * An expiry as the bundle reads it, in the form to write: a date ({@code 2027-03-01}) or an instant
     * ({@code 2027-03-01T00:00:00Z}; an offset is converted to UTC).
     *
     * @throws DateTimeException when it is neither
     */
    static String normalisedExpiry(String text) {
        String t = text.trim();
        return t.contains("T") ? OffsetDateTime.parse(t).toInstant().toString() : LocalDate.parse(t).toString();
    }

    /** The moment an expiry means: a date is the start of that day in UTC. */
    static Instant expiry(String text) {
        String t = text.trim();
        return t.contains("T") ? OffsetDateTime.parse(t).toInstant()
                : LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
