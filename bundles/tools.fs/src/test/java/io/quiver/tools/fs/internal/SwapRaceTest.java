package io.quiver.tools.fs.internal;

import static io.quiver.tools.fs.internal.Fixture.call;
import static io.quiver.tools.fs.internal.Fixture.leaks;
import static io.quiver.tools.fs.internal.Fixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread swaps a directory in the path for a link out of the root, and back, as fast as it can, while calls
 * run: every call reads what is inside or fails, none reads or writes outside.
 */
class SwapRaceTest {

    @TempDir
    Path temp;

    @Test
    void aDirectorySwappedForALinkOutNeverLeadsOutside() throws Exception {
        Fixture f = new Fixture(temp);
        Path swap = f.root.resolve("swap");
        Path held = f.root.resolve("swap-held");
        Path link = f.root.resolve("swap-link");
        Files.createDirectories(swap);
        Files.writeString(swap.resolve("canary.txt"), "inside\n");
        Files.createSymbolicLink(link, f.outside);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong swaps = new AtomicLong();
        Thread swapper = new Thread(() -> {
            try {
                while (running.get()) {
                    Files.move(swap, held, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(link, swap, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(swap, link, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(held, swap, StandardCopyOption.ATOMIC_MOVE);
                    swaps.incrementAndGet();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "swapper");
        swapper.start();
        int inside = 0;
        int refused = 0;
        try {
            ReadTextFileTool read = new ReadTextFileTool(f.workspace);
            WriteFileTool write = new WriteFileTool(f.workspace);
            long deadline = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < deadline && (inside < 50 || refused < 50 || swaps.get() < 1000)) {
                ToolResult r = call(read, new ReadTextFileTool.Arguments("swap/canary.txt", Optional.empty(),
                        Optional.empty()));
                assertFalse(leaks(r), text(r));
                if (r.isError()) {
                    refused++;
                } else {
                    assertEquals("inside\n", text(r));
                    inside++;
                }
                ToolResult w = call(write, new WriteFileTool.Arguments("swap/written.txt", "x"));
                assertFalse(leaks(w));
            }
        } finally {
            running.set(false);
            swapper.join();
        }
        assertTrue(swaps.get() > 0);
        assertEquals(Fixture.CANARY_TEXT, f.canaryNow());
        try (Stream<Path> files = Files.list(f.outside)) {
            assertEquals(List.of(f.canary), files.toList(), "nothing was written outside");
        }
        System.out.println("SwapRaceTest: " + inside + " reads inside, " + refused + " refused, " + swaps.get()
                + " swaps");
    }

    @Test
    void aLinkRetargetedBetweenInsideAndOutsideNeverLeadsOutside() throws Exception {
        Fixture f = new Fixture(temp);
        Path flip = f.root.resolve("flip");
        Path next = f.root.resolve("flip.next");
        Files.createSymbolicLink(flip, Path.of("a.txt"));
        AtomicBoolean running = new AtomicBoolean(true);
        Thread flipper = new Thread(() -> {
            try {
                boolean out = false;
                while (running.get()) {
                    Files.deleteIfExists(next);
                    Files.createSymbolicLink(next, out ? Path.of("a.txt") : f.canary);
                    Files.move(next, flip, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    out = !out;
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "flipper");
        flipper.start();
        try {
            ReadTextFileTool read = new ReadTextFileTool(f.workspace);
            for (int i = 0; i < 2000; i++) {
                ToolResult r = call(read, new ReadTextFileTool.Arguments("flip", Optional.empty(), Optional.empty()));
                assertFalse(leaks(r), text(r));
                assertTrue(r.isError() || text(r).equals("alpha\nbeta\ngamma\n"), text(r));
            }
        } finally {
            running.set(false);
            flipper.join();
        }
        assertEquals(Fixture.CANARY_TEXT, f.canaryNow());
    }
}
