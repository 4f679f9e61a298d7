// A warm javac for a compile cell (reward_api.verify.languages, "warm compilers"): one JVM
// compiles many programs, so javac's own classes are loaded, linked and JIT-compiled once
// instead of once per program. Started with Java's source launcher (`java
// CompileServer.java`); it never runs program code: annotation processing is off
// (-proc:none) and no plugin is named.
// Protocol: "ready" once warm, then one line each way:
//   request  "<build dir>\t<mode>\t<file>[\t<file>...]"   (the files are written beforehand)
//   response "ok" | "error\t<diagnostics, backslashes and newlines escaped>"
//            | "crash\t<javac's report>", after which the server ends (javac crashed)
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
            StringWriter said = new StringWriter();  // javac's own output: its crash report
            Throwable crash = null;
            try {
                ok = javac.getTask(said, files, diags, options, null, files.getJavaFileObjectsFromFiles(sources)).call();
            } catch (RuntimeException | Error e) {  // javac's own crash on a hostile source
                ok = false;
                crash = e;
            }
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    String name = d.getSource() == null ? "" : new File(d.getSource().getName()).getName();
                    msg.append(name).append(':').append(d.getLineNumber()).append(": error: ")
                       .append(d.getMessage(Locale.ROOT)).append('\n');
                }
            }
            if (crash != null || (!ok && msg.length() == 0)) {
                // javac ended abnormally (it reports its own crash, a stack overflow or an
                // out-of-memory, as a failed task with no error): its state may be half
                // made, so this server answers "crash" and ends; the runner starts a fresh
                // one and compiles the build again there once
                String text = crash != null ? "javac: " + crash : said.toString().strip();
                text = text.length() > 2000 ? text.substring(0, 2000) : text;
                out.println("crash\t" + text.replace("\\", "\\\\").replace("\n", "\\n"));
                return;
            }
            out.println(ok ? "ok" : "error\t" + msg.toString().replace("\\", "\\\\").replace("\n", "\\n"));
        }
    }
}
