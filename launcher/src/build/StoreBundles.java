import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Build step (run by the launcher's pom after the shade plugin): writes {@code quiver.jar} from the shaded jar so
 * that each embedded bundle ({@code bundles/*.jar}) and every entry inside it is stored, not deflated, as a new
 * file renamed into place (a server running from the jar before keeps its own).
 *
 * <p>Why: at every start the launcher copies each bundle into the framework's storage and the
 * bundles' class loaders read their classes from those copies. With deflated jars both steps
 * inflate (about 0.17 s of the main thread's CPU during a start of the default features, measured
 * with async-profiler); stored, they are plain reads. The price is the jar's size on disk (about
 * 41 MB instead of 18 MB). Every other entry keeps its compression.
 *
 * <p>Run as a single-file program: {@code java StoreBundles.java target/quiver-shaded.jar target/quiver.jar}.
 */
public final class StoreBundles {

    public static void main(String[] args) throws IOException {
        Path shaded = Path.of(args[0]);
        Path jar = Path.of(args[1]);
        Path out = jar.resolveSibling(jar.getFileName() + ".tmp");
        try (ZipFile in = new ZipFile(shaded.toFile());
                ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                byte[] data;
                try (InputStream s = in.getInputStream(e)) {
                    data = s.readAllBytes();
                }
                if (e.getName().startsWith("bundles/") && e.getName().endsWith(".jar")) {
                    put(zip, e, storedCopy(data), ZipEntry.STORED);
                } else {
                    put(zip, e, data, ZipEntry.DEFLATED);
                }
            }
        }
        // a new file renamed into place: a server running from the old jar keeps reading the old one
        Files.move(out, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The same jar, every entry in the same order with the same content and time, stored. */
    private static byte[] storedCopy(byte[] jar) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(jar.length * 3);
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar));
                ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                put(zip, e, in.readAllBytes(), ZipEntry.STORED);
            }
        }
        return bytes.toByteArray();
    }

    private static void put(ZipOutputStream zip, ZipEntry from, byte[] data, int method) throws IOException {
        ZipEntry e = new ZipEntry(from.getName());
        e.setTime(from.getTime());
        e.setMethod(method);
        if (method == ZipEntry.STORED) {
            CRC32 crc = new CRC32();
            crc.update(data);
            e.setSize(data.length);
            e.setCompressedSize(data.length);
            e.setCrc(crc.getValue());
        }
        zip.putNextEntry(e);
        zip.write(data);
        zip.closeEntry();
    }
}
