package io.quiver.tools.fs.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** {@code get_file_info}: size, times, type, permissions and link count of a file or directory. */
@Component(service = Tool.class)
@McpTool(name = "get_file_info",
        title = "Get File Info",
        description = "Retrieve detailed metadata about a file or directory. Returns comprehensive information"
                + " including size, creation time, last modified time, last access time, permissions (octal), type"
                + " and the number of hard links, without reading the content. Only works within allowed"
                + " directories.",
        arguments = PathArgument.class,
        output = GetFileInfoTool.FileInfo.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class GetFileInfoTool implements Tool {

    /**
     * A file's metadata.
     *
     * @param type {@code file}, {@code directory} or {@code other}
     * @param created ISO-8601 (the modification time where the file system keeps no creation time)
     * @param permissions octal, e.g. {@code 644}; empty where there are none
     * @param links the number of hard links
     */
    public record FileInfo(String path, String type, long size, String created, String modified, String accessed,
            boolean isDirectory, boolean isFile, String permissions, int links) {
    }

    private final Workspace workspace;

    @Activate
    public GetFileInfoTool(@Reference Workspace workspace) {
        this.workspace = workspace;
    }

    @Override
    public Outcome call(ToolCall call) {
        PathArgument arguments = call.arguments(PathArgument.class);
        return workspace.run(call, sandbox -> {
            FileInfo info = info(sandbox, arguments.path());
            String text = "size: " + info.size() + "\ncreated: " + info.created() + "\nmodified: " + info.modified()
                    + "\naccessed: " + info.accessed() + "\nisDirectory: " + info.isDirectory() + "\nisFile: "
                    + info.isFile() + "\npermissions: " + info.permissions() + "\ntype: " + info.type() + "\nlinks: "
                    + info.links() + "\npath: " + info.path();
            return new ToolResult(List.of(new TextContent(text)), info, false, Map.of());
        });
    }

    static FileInfo info(Sandbox sandbox, String path) throws FsException, IOException {
        try (Entry entry = sandbox.locate(path, true)) {
            if (!entry.exists()) {
                throw new FsException("No such file or directory: " + entry.path() + ".");
            }
            BasicFileAttributes a = entry.attributes();
            Set<PosixFilePermission> permissions;
            try {
                PosixFileAttributeView view = entry.isRoot()
                        ? entry.dir().getFileAttributeView(PosixFileAttributeView.class)
                        : entry.dir().getFileAttributeView(Path.of(entry.name()), PosixFileAttributeView.class,
                                LinkOption.NOFOLLOW_LINKS);
                permissions = view.readAttributes().permissions();
            } catch (UnsupportedOperationException e) {
                permissions = null;
            }
            int links = FileAccess.links(entry.path(), a);
            return new FileInfo(entry.path().toString(), Walker.type(a), a.size(), a.creationTime().toInstant().toString(),
                    a.lastModifiedTime().toInstant().toString(), a.lastAccessTime().toInstant().toString(),
                    a.isDirectory(), a.isRegularFile(), permissions == null ? "" : octal(permissions), links);
        }
    }

    static String octal(Set<PosixFilePermission> permissions) {
        String text = PosixFilePermissions.toString(permissions);
        int value = 0;
        for (int i = 0; i < 9; i++) {
            value = value << 1 | (text.charAt(i) == '-' ? 0 : 1);
        }
        return Integer.toOctalString(value | 01000).substring(1);
    }
}
