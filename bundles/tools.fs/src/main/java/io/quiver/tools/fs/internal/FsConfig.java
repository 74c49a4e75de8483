package io.quiver.tools.fs.internal;

import io.quiver.lib.config.Max;
import io.quiver.lib.config.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of the file tools (PID {@code io.quiver.tools.fs}), the single source of their defaults. Every
 * setting applies to the running server when its file changes; a value that is not valid keeps the last good
 * one and is listed as a problem.
 */
@ObjectClassDefinition(name = "Quiver file tools",
        description = "The directories the built-in file tools may reach (read-only unless marked :rw) and their"
                + " limits")
public @interface FsConfig {

    /** The configuration PID operators write ({@code etc/io.quiver.tools.fs.cfg}). */
    String PID = "io.quiver.tools.fs";

    @AttributeDefinition(name = "Roots",
            description = "The directories the tools may reach, comma-separated; each a path (relative paths are"
                    + " under the server's working directory, ~ is the user's home), read-only unless it ends in"
                    + " :rw (e.g. /srv/data, /home/me/project:rw). Default: the working directory, read-only")
    String[] roots() default {"."};

    @AttributeDefinition(name = "Excluded",
            description = "More directories inside the roots that the tools never reach, comma-separated (relative paths"
                    + " are under the server's working directory, ~ is the user's home). The server's own configuration"
                    + " folder (etc/), deploy folder, framework storage and audit/ are excluded whatever this says")
    String[] exclude() default {};

    @AttributeDefinition(name = "Client roots",
            description = "Narrow the roots to the MCP roots the client offers (asked with roots/list on every"
                    + " call of a client that declares the capability); false: the client's roots are ignored")
    boolean clientRoots() default true;

    @AttributeDefinition(name = "Read limit",
            description = "Most bytes of text one read returns (a whole file, head/tail, several files together)")
    @Min(1024)
    @Max(64L << 20)
    long maxReadBytes() default 256L << 10;

    @AttributeDefinition(name = "Media limit",
            description = "Largest file read_media_file returns (bytes; base64 adds a third, which must stay"
                    + " within the engine's maxOutputBytes)")
    @Min(1024)
    @Max(256L << 20)
    long maxMediaBytes() default 768L << 10;

    @AttributeDefinition(name = "Write limit", description = "Largest content write_file and edit_file write (bytes)")
    @Min(1024)
    @Max(1L << 30)
    long maxWriteBytes() default 4L << 20;

    @AttributeDefinition(name = "Edit limit", description = "Most edits one edit_file call may make (each searches the"
            + " whole file); a call with more is refused and nothing is written")
    @Min(1)
    @Max(100_000)
    int maxEdits() default 100;

    @AttributeDefinition(name = "Result limit",
            description = "Most entries a listing, tree or search returns (more are counted, not shown)")
    @Min(1)
    @Max(100_000)
    int maxResults() default 1000;

    @AttributeDefinition(name = "Search file limit",
            description = "search_file_contents skips files larger than this (bytes)")
    @Min(1024)
    @Max(1L << 30)
    long maxSearchFileBytes() default 1L << 20;

    @AttributeDefinition(name = "Search output limit",
            description = "Most bytes of matches (with their context lines) one search_file_contents returns, in its"
                    + " text and in its structured content each; past it the search stops with a partial result."
                    + " Keep it well under the engine's maxOutputBytes (1 MiB by default), which fails a call whose"
                    + " structured content is larger")
    @Min(1024)
    @Max(64L << 20)
    long maxSearchOutputBytes() default 512L << 10;

    @AttributeDefinition(name = "Diff limit",
            description = "Most bytes of the diff edit_file shows, in its text and in its structured content each;"
                    + " past it the diff is cut at a line with a note (the edit itself is applied whole). Keep it"
                    + " well under the engine's maxOutputBytes (1 MiB by default), which fails a call whose structured"
                    + " content is larger: the file would be changed while the call reported a failure")
    @Min(1024)
    @Max(64L << 20)
    long maxDiffBytes() default 256L << 10;

    @AttributeDefinition(name = "Scan limit",
            description = "Most directory entries one tree or search visits before it stops with a partial result")
    @Min(100)
    @Max(10_000_000)
    int maxScannedEntries() default 100_000;

    @AttributeDefinition(name = "Regex time limit",
            description = "Longest time (ms) a regular expression of search_file_contents may take on one file;"
                    + " past it the search stops with an error (catastrophic backtracking)")
    @Min(10)
    @Max(600_000)
    long regexTimeoutMs() default 2000;

    @AttributeDefinition(name = "Read hard-linked files",
            description = "Read regular files that have more than one hard link (their other names may be outside"
                    + " every root, and that cannot be known). Writing through such a file is always refused")
    boolean readHardLinks() default false;
}
