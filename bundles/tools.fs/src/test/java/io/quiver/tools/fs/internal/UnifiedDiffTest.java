package io.quiver.tools.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The diffs edit_file shows are the reference server's (jsdiff's createTwoFilesPatch, whose output is pinned here). */
class UnifiedDiffTest {

    /** l1 to ln, one a line. */
    private static String lines(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> "l" + i + "\n").collect(Collectors.joining());
    }

    @Test
    void middle() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -6,9 +6,9 @@\n l6\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13\n l14\n",
                UnifiedDiff.of(lines(20), lines(20).replace("l10\n", "L10\n"), "f"));
    }

    @Test
    void twoHunks() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -1,7 +1,7 @@\n l1\n l2\n-l3\n+L3\n l4\n l5\n l6\n l7\n@@ -21,9 +21,9 @@\n l21\n l22\n l23\n l24\n-l25\n+L25\n l26\n l27\n l28\n l29\n",
                UnifiedDiff.of(lines(30), lines(30).replace("l3\n", "L3\n").replace("l25\n", "L25\n"), "f"));
    }

    @Test
    void merged() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -6,17 +6,17 @@\n l6\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13\n l14\n l15\n l16\n l17\n-l18\n+L18\n l19\n l20\n l21\n l22\n",
                UnifiedDiff.of(lines(30), lines(30).replace("l10\n", "L10\n").replace("l18\n", "L18\n"), "f"));
    }

    @Test
    void noEol() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n",
                UnifiedDiff.of("a\nb\nc", "a\nb\nC", "f"));
    }

    @Test
    void addEol() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
                UnifiedDiff.of("a\nb", "a\nb\n", "f"));
    }

    @Test
    void insertStart() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -1,2 +1,3 @@\n+x\n a\n b\n",
                UnifiedDiff.of("a\nb\n", "x\na\nb\n", "f"));
    }

    @Test
    void deleteAll() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -1,2 +0,0 @@\n-a\n-b\n",
                UnifiedDiff.of("a\nb\n", "", "f"));
    }

    @Test
    void fromEmpty() {
        assertEquals("Index: f\n===================================================================\n--- f\toriginal\n+++ f\tmodified\n@@ -0,0 +1,1 @@\n+a\n",
                UnifiedDiff.of("", "a\n", "f"));
    }
}
