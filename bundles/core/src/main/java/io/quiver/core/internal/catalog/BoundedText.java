package io.quiver.core.internal.catalog;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text a regular expression reads within a budget of steps. A pattern that backtracks (nested or adjacent
 * quantifiers: {@code ^(.*a){12}x}, a URI template's {@code {name}.{ext}}) takes time polynomial or exponential
 * in the text's length, and the JDK's matcher neither times out nor stops when its thread is interrupted:
 * each character the matcher reads is counted, and a match that needs more than the budget is given up.
 */
public final class BoundedText implements CharSequence {

    /** The steps (characters read) a match may take beyond {@link #PER_CHARACTER} per character of the text. */
    static final long STEPS = 1_000_000;
    static final long PER_CHARACTER = 16;

    /** The budget was spent: the match is given up. */
    static final class Exhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exhausted() {
            super(null, null, false, false);
        }
    }

    /** The steps all matches of one request share (its arguments' validation, its URI's templates). */
    static final long SHARED_STEPS = 20_000_000;

    /** The budget the current thread's matches share while {@link #shared()} is open, else null. */
    private static final ThreadLocal<long[]> SHARED = new ThreadLocal<>();

    private final String text;
    private long budget;
    private final long[] shared;

    private BoundedText(String text) {
        this.text = text;
        this.budget = STEPS + PER_CHARACTER * text.length();
        this.shared = SHARED.get();
    }

    /**
     * Opens a budget of {@link #SHARED_STEPS} that every match on this thread draws from besides its own, until
     * closed: many values each within their own budget (a schema's pattern on every item of a 4 MiB array) are
     * bounded together. One opened already (an outer caller's) is kept.
     */
    public static Budget shared() {
        if (SHARED.get() != null) {
            return () -> { };
        }
        SHARED.set(new long[] {SHARED_STEPS});
        return SHARED::remove;
    }

    /** An open shared budget; closing it ends it. */
    @FunctionalInterface
    public interface Budget extends AutoCloseable {
        @Override
        void close();
    }

    /** A matcher of {@code pattern} over {@code text} that throws {@link Exhausted} past the budget. */
    static Matcher matcher(Pattern pattern, String text) {
        return pattern.matcher(new BoundedText(text));
    }

    @Override
    public char charAt(int index) {
        if (--budget < 0 || shared != null && --shared[0] < 0) {
            throw new Exhausted();
        }
        return text.charAt(index);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return text.substring(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
