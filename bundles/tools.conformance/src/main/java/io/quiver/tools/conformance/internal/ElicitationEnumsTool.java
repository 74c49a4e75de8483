package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Component;

/** Asks for a form with the five enum shapes of SEP-1330 (single/multi, titled/untitled, legacy). */
@Component(service = Tool.class)
@McpTool(name = "test_elicitation_sep1330_enums",
        description = "Tests elicitation with enum schema improvements per SEP-1330")
public final class ElicitationEnumsTool implements Tool {

    static final String KEY = "enums_form";
    static final String MESSAGE = "Please select options from the enum fields";

    static final Map<String, Object> SCHEMA = Elicitations.form(
            Fixtures.ordered(
                    "untitledSingle", Fixtures.ordered("type", "string", "description", "Select one option",
                            "enum", List.of("option1", "option2", "option3")),
                    "titledSingle", Fixtures.ordered("type", "string",
                            "description", "Select one option with titles",
                            "oneOf", titled("value1", "First Option", "value2", "Second Option",
                                    "value3", "Third Option")),
                    "legacyEnum", Fixtures.ordered("type", "string", "description", "Select one option (legacy)",
                            "enum", List.of("opt1", "opt2", "opt3"),
                            "enumNames", List.of("Option One", "Option Two", "Option Three")),
                    "untitledMulti", Fixtures.ordered("type", "array", "description", "Select multiple options",
                            "minItems", 1, "maxItems", 3,
                            "items", Fixtures.ordered("type", "string",
                                    "enum", List.of("option1", "option2", "option3"))),
                    "titledMulti", Fixtures.ordered("type", "array",
                            "description", "Select multiple options with titles",
                            "minItems", 1, "maxItems", 3,
                            "items", Fixtures.ordered("anyOf", titled("value1", "First Choice",
                                    "value2", "Second Choice", "value3", "Third Choice")))),
            List.of());

    @Override
    public Outcome call(ToolCall call) {
        return Elicitations.askThenReport(call, KEY, MESSAGE, SCHEMA, "Elicitation completed");
    }

    /** {@code [{const: v1, title: t1}, ...]} from value, title pairs. */
    private static List<Map<String, Object>> titled(String... valuesAndTitles) {
        List<Map<String, Object>> options = new ArrayList<>();
        for (int i = 0; i < valuesAndTitles.length; i += 2) {
            options.add(Fixtures.ordered("const", valuesAndTitles[i], "title", valuesAndTitles[i + 1]));
        }
        return List.copyOf(options);
    }
}
