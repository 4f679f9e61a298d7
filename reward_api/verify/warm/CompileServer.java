// A warm javac for a compile cell (reward_api.verify.languages, "warm compilers"): one JVM
// compiles many programs, so javac's own classes are loaded, linked and JIT-compiled once
// instead of once per program. Started with Java's source launcher (`java
// CompileServer.java`); it never runs program code: annotation processing is off
// (-proc:none) and no plugin is named.
// Protocol: "ready" once warm, then one line each way:
//   request  "<build dir>\t<mode>\t<file>[\t<file>...]"   (the files are written beforehand)
//   response "ok" | "error\t<diagnostics, backslashes and newlines escaped>"
// Options are the javac recipe's (-proc:none -nowarn -encoding UTF-8 -d DIR) with the
// build dir as the class path, as javac run in that folder has it ("." by default).
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import javax.tools.*;

public class CompileServer {
    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager files = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        // warm up on a class of our own (in the server's folder, its working directory),
        // then say so: starting is not any program's compile time
        File warm = new File("warm");
        warm.mkdir();
        try (Writer w = new OutputStreamWriter(new FileOutputStream(new File(warm, "Warm.java")), StandardCharsets.UTF_8)) {
            w.write("import java.util.*;\nclass Warm { List<Integer> f() { return new ArrayList<>(Map.of(1, 2).keySet()); } }\n");
        }
        javac.getTask(null, files, null, List.of("-proc:none", "-d", warm.getPath()), null,
                files.getJavaFileObjectsFromFiles(List.of(new File(warm, "Warm.java")))).call();
        out.println("ready");
        for (String line; (line = in.readLine()) != null; ) {
            String[] req = line.split("\t", -1);
            File dir = new File(req[0]);
            List<File> sources = new ArrayList<>();
            for (int i = 2; i < req.length; i++) sources.add(new File(dir, req[i]));
            DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
            List<String> options = List.of("-proc:none", "-nowarn", "-encoding", "UTF-8",
                    "-d", dir.getPath(), "-cp", dir.getPath());
            boolean ok;
            StringBuilder msg = new StringBuilder();
            try {
                ok = javac.getTask(null, files, diags, options, null, files.getJavaFileObjectsFromFiles(sources)).call();
            } catch (RuntimeException e) {  // javac's own crash on a hostile source: a failed build
                ok = false;
                msg.append("javac: ").append(e).append('\n');
            }
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    String name = d.getSource() == null ? "" : new File(d.getSource().getName()).getName();
                    msg.append(name).append(':').append(d.getLineNumber()).append(": error: ")
                       .append(d.getMessage(Locale.ROOT)).append('\n');
                }
            }
            out.println(ok ? "ok" : "error\t" + msg.toString().replace("\\", "\\\\").replace("\n", "\\n"));
        }
    }
}
