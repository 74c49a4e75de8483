package io.quiver.core.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class InvocationIdsTest {

    @Test
    void idsAreVersion4UuidsAndDistinctAcrossThreads() {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 200_000).parallel().forEach(i -> {
            String id = InvocationIds.next();
            UUID uuid = UUID.fromString(id);
            assertEquals(4, uuid.version(), id);
            assertEquals(2, uuid.variant(), id);
            assertEquals(id, uuid.toString());
            seen.add(id);
        });
        assertEquals(200_000, seen.size(), "no id twice");
    }
}
