package io.quiver.tools.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Globs match as the reference server's minimatch (dot: true) does; the expectations are minimatch's own answers. */
class GlobTest {

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource({
            "docs, docs/**, false", "docs/a.md, docs/**, true", "a, **, true", "src, src/**, false",
            "x.md, **/*.md, true", "a/b/c, a/**/c, true", "a/c, a/**/c, true", ".hidden, .*, true",
            ".hidden/config, **/.*, false", "edits-q/.gitignore, **/.*, true", "docs/deep, **/deep/**, false",
            "docs/deep/er, **/deep/**, true", "a.json, '*.{json,md}', true", "src/main/App.java, **/[AU]*.java, true",
            "sub/a.txt, *.txt, false", "a.txt, *.txt, true", "a.txt, a.tx?, true", "a.txt, [!a].txt, false",
            "b.txt, [!a].txt, true", "a+b(c).txt, a+b(c).txt, true", "a/b, a*b, false", "x.java, '*.{java,kt}', true",
            "deep/x.kt, '**/*.{java,kt}', true", "weird[, weird[, true"})
    void matchesLikeMinimatch(String path, String glob, boolean expected) throws Exception {
        assertEquals(expected, Glob.of(glob).matches(path));
    }

    /**
     * Many stars before a letter that is not there: a backtracking regular expression tries every way of
     * splitting the name among them (this one did not finish in a minute); the matcher answers at once. The
     * time bound only keeps a hang from stopping the build.
     */
    @Test
    void manyStarsAgainstALongNameAnswerAtOnce() throws Exception {
        Glob glob = Glob.of("**/*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*z");
        String path = "src/main/" + "e".repeat(125);
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> glob.matches(path)));
        assertTrue(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> glob.matches(path + "z")));
        Glob deep = Glob.of("**/a/**/a/**/a/**/a/**/a/**/b");
        String many = "a/".repeat(60) + "c";
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> deep.matches(many)));
    }

    @Test
    void setsEscapesAndCharactersBeyondTheBasicPlane() throws Exception {
        assertTrue(Glob.of("[a-c-e]x").matches("-x"), "a - right after a range is itself");
        assertFalse(Glob.of("[a-c-e]x").matches("dx"));
        assertTrue(Glob.of("[]x]").matches("]"), "a ] first in a set is itself");
        assertTrue(Glob.of("[!-a]").matches("b"));
        assertFalse(Glob.of("[!-a]").matches("-"));
        assertFalse(Glob.of("a[!b]c").matches("a/c"), "a set never matches the separator");
        assertFalse(Glob.of("a[+-9]c").matches("a/c"), "nor does a range that spans it");
        assertTrue(Glob.of("\\*").matches("*") && !Glob.of("\\*").matches("x"), "an escaped star is a star");
        assertTrue(Glob.of("a?b").matches("a\uD83D\uDE00b"), "? is one character, even beyond the basic plane");
        assertTrue(Glob.of("[\uD83D\uDE00]").matches("\uD83D\uDE00"));
        assertTrue(Glob.of("**/x/**").matches("a/x/b/c") && !Glob.of("**/x/**").matches("a/x"));
        FsException backwards = assertThrows(FsException.class, () -> Glob.of("[z-a]"));
        assertTrue(backwards.getMessage().contains("backwards"), backwards.getMessage());
    }
}
