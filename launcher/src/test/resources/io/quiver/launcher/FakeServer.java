import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tiny stdio MCP server for SharedUpstreamTest, run as a single-file source program: answers
 * initialize (in the revision asked) and tools/call (with the tool's name), and starts a child process
 * that only waits, so a stop has a tree to end. Exits at the end of its input.
 */
public class FakeServer {
    public static void main(String[] args) throws Exception {
        new ProcessBuilder("sleep", "300").start();
        Pattern id = Pattern.compile("\"id\":(\\d+)");
        Pattern method = Pattern.compile("\"method\":\"([^\"]+)\"");
        Pattern name = Pattern.compile("\"name\":\"([^\"]+)\"");
        Pattern version = Pattern.compile("\"protocolVersion\":\"([^\"]+)\"");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            Matcher i = id.matcher(line);
            Matcher m = method.matcher(line);
            if (!i.find() || !m.find()) {
                continue;
            }
            String answer = switch (m.group(1)) {
                case "initialize" -> {
                    Matcher v = version.matcher(line);
                    v.find();
                    yield "{\"protocolVersion\":\"" + v.group(1) + "\",\"capabilities\":{\"tools\":{}},"
                            + "\"serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}";
                }
                case "tools/call" -> {
                    Matcher n = name.matcher(line);
                    n.find();
                    yield "{\"content\":[{\"type\":\"text\",\"text\":\"" + n.group(1) + "\"}]}";
                }
                default -> "{}";
            };
            System.out.println("{\"jsonrpc\":\"2.0\",\"id\":" + i.group(1) + ",\"result\":" + answer + "}");
            System.out.flush();
        }
    }
}
