package io.quiver.core.internal.catalog;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** RFC 6570 level-1 URI templates ({@code {var}} expressions), matched against concrete URIs. */
public final class UriTemplate {

    private static final Pattern EXPRESSION = Pattern.compile("\\{([A-Za-z0-9_.]+)}");

    private final String template;
    private final Pattern pattern;
    private final List<String> names;

    public UriTemplate(String template) {
        this.template = template;
        List<String> found = new ArrayList<>();
        StringBuilder regex = new StringBuilder("^");
        Matcher m = EXPRESSION.matcher(template);
        int last = 0;
        while (m.find()) {
            regex.append(Pattern.quote(template.substring(last, m.start())));
            regex.append("([^/?#]+)");
            found.add(m.group(1));
            last = m.end();
        }
        regex.append(Pattern.quote(template.substring(last))).append('$');
        this.pattern = Pattern.compile(regex.toString());
        this.names = List.copyOf(found);
    }

    /** The template text. */
    public String template() {
        return template;
    }

    /** The variable names in order. */
    public List<String> variables() {
        return names;
    }

    /**
     * The variables of a matching URI, or {@code null} when it does not match. Variables next to each other, or
     * separated by a character they may also hold ({@code {name}.{ext}}), make the regular expression backtrack
     * polynomially in the URI's length (a client's 160 KB URI took 34 s, 14 adjacent variables hung on 41
     * characters): the matcher gets a bounded number of steps, and a URI that needs more matches nothing.
     */
    public Map<String, String> match(String uri) {
        Matcher m = BoundedText.matcher(pattern, uri);
        try {
            if (!m.matches()) {
                return null;
            }
        } catch (BoundedText.Exhausted e) {
            return null;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            values.put(names.get(i), URLDecoder.decode(m.group(i + 1), StandardCharsets.UTF_8));
        }
        return values;
    }
}
