package io.quiver.tools.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
