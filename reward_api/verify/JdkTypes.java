import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

/** Writes reward_api/verify/jdk_types.txt for compiled_eq.qualify_java_types (the command is in
 *  that file's header): "package Name Name ..." per line, the public top-level types of every
 *  java.* and javax.* package a system module exports to everyone, and "Type Member ..." for
 *  the public member types of those types. */
public class JdkTypes {
    public static void main(String[] args) throws Exception {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        TreeMap<String, TreeSet<String>> out = new TreeMap<>();
        for (Module m : ModuleLayer.boot().modules()) {
            ModuleDescriptor d = m.getDescriptor();
            for (ModuleDescriptor.Exports e : d.exports()) {
                if (e.isQualified()) continue;
                String p = e.source();
                if (!(p.startsWith("java.") || p.startsWith("javax."))) continue;
                Path dir = jrt.getPath("/modules", d.name(), p.replace('.', '/'));
                if (!Files.isDirectory(dir)) continue;
                try (Stream<Path> s = Files.list(dir)) {
                    for (Path f : s.collect(Collectors.toList())) {
                        String n = f.getFileName().toString();
                        if (!n.endsWith(".class") || n.contains("$") || n.equals("module-info.class") || n.equals("package-info.class")) continue;
                        String bin = p + "." + n.substring(0, n.length() - 6);
                        Class<?> c;
                        try { c = Class.forName(bin, false, ClassLoader.getPlatformClassLoader()); }
                        catch (Throwable t) { continue; }
                        add(out, c);
                    }
                }
            }
        }
        for (Map.Entry<String, TreeSet<String>> e : out.entrySet())
            System.out.println(e.getKey() + " " + String.join(" ", e.getValue()));
    }
    static void add(TreeMap<String, TreeSet<String>> out, Class<?> c) {
        if (!Modifier.isPublic(c.getModifiers()) || c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) return;
        String owner = c.getEnclosingClass() == null ? c.getPackageName() : c.getEnclosingClass().getCanonicalName();
        if (owner == null) return;
        out.computeIfAbsent(owner, k -> new TreeSet<>()).add(c.getSimpleName());
        Class<?>[] members;
        try { members = c.getDeclaredClasses(); } catch (Throwable t) { return; }
        for (Class<?> k : members) add(out, k);
    }
}
