package io.quiver.core.internal.catalog;

import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;
import com.networknt.schema.regex.RegularExpressions;
import java.util.regex.Pattern;

/**
 * The JSON Schema validator's regular expressions ({@code pattern}, {@code patternProperties}, {@code format:
 * regex}) as its JDK factory makes them, each match within a bounded number of steps ({@link BoundedText}). Tool
 * schemas come from bundles and from third-party upstream servers, their arguments from any client: a pattern
 * that backtracks held a request thread at full CPU for as long as the match took (minutes for 60 characters
 * against {@code ^(.*a){12}x}), past the tool's timeout and any cancellation. A value whose match needs more
 * than the budget does not match.
 */
public final class BoundedRegularExpressions implements RegularExpressionFactory {

    public static final BoundedRegularExpressions INSTANCE = new BoundedRegularExpressions();

    /** A schema registry's configuration with these regular expressions. */
    public static final SchemaRegistryConfig CONFIG = SchemaRegistryConfig.builder().regularExpressionFactory(INSTANCE)
            .build();

    private BoundedRegularExpressions() {
    }

    @Override
    public RegularExpression getRegularExpression(String regex) {
        // the same rewriting as the validator's JDK factory (ECMA-262's $ and long-form properties)
        Pattern pattern = Pattern.compile(RegularExpressions.replaceLongformCharacterProperties(
                RegularExpressions.replaceDollarAnchors(regex)));
        return value -> {
            try {
                return BoundedText.matcher(pattern, value).find();
            } catch (BoundedText.Exhausted e) {
                return false;
            }
        };
    }
}
