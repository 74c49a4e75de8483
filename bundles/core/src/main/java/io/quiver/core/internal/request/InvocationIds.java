package io.quiver.core.internal.request;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Invocation ids: random version 4 UUIDs drawn from {@link ThreadLocalRandom}. Every request gets
 * one; {@link UUID#randomUUID()} draws from the JDK's {@code SecureRandom}, one lock for the whole
 * process, and under 256 concurrent callers a sixth of the busy server threads waited on it. The
 * ids are unique, not secrets: they name a call in logs, errors and the host channel, and no caller
 * can do anything with one.
 */
final class InvocationIds {

    private InvocationIds() {
    }

    static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & ~(0b11L << 62)) | (0b10L << 62); // IETF variant
        return new UUID(high, low).toString();
    }
}
