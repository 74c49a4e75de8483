package io.quiver.launcher;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns SIGINT and SIGTERM into an orderly stop, so that the process exits with status 0 (a plain
 * shutdown hook would still end with 130 or 143). A second signal while stopping halts at once, killing the
 * processes the server started ({@link Halt}).
 * Uses {@code sun.misc.Signal} (module jdk.unsupported) through reflection; where it is missing,
 * {@link #install} returns false and the caller relies on its shutdown hook. A signal ignored when
 * the JVM started (SIGINT of a background job) stays ignored.
 */
final class Signals {

    private Signals() {
    }

    static boolean install(Runnable onFirstSignal) {
        AtomicBoolean stopping = new AtomicBoolean();
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Constructor<?> create = signal.getConstructor(String.class);
            Method handle = signal.getMethod("handle", signal, handler);
            Object proxy = Proxy.newProxyInstance(Signals.class.getClassLoader(), new Class<?>[] {handler},
                    (self, method, args) -> {
                        if (method.getName().equals("handle")) {
                            if (stopping.compareAndSet(false, true)) {
                                Thread t = new Thread(onFirstSignal, "quiver-stop");
                                t.start();
                            } else {
                                System.err.println("quiver: a second signal while stopping: halting at once");
                                System.err.flush();
                                Halt.now(1);
                            }
                            return null;
                        }
                        return switch (method.getName()) {
                            case "hashCode" -> System.identityHashCode(self);
                            case "equals" -> self == args[0];
                            default -> "quiver-signal-handler";
                        };
                    });
            boolean any = false;
            for (String name : new String[] {"INT", "TERM"}) {
                try {
                    handle.invoke(null, create.newInstance(name), proxy);
                    any = true;
                } catch (ReflectiveOperationException e) {
                    // this signal is the VM's or the OS's: the shutdown hook covers it
                }
            }
            return any;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false;
        }
    }
}
