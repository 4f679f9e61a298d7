// A warm javac: one JVM compiles many programs, so javac's own classes are loaded, linked
// and JIT-compiled once instead of once per program. Protocol, one line each way:
//   request  "<work dir>\t<file name>\t"   (the file is written there beforehand)
//   response "ok" | "error\t<diagnostics, newlines escaped as \n>"
// Annotation processing is off (-proc:none), so compiling a program never runs its code.
// The file manager is reused across requests: it caches the platform's class index.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import javax.tools.*;

public class JavacServer {
    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        for (String line; (line = in.readLine()) != null; ) {
            String[] req = line.split("\t", -1);  // dir, file, and a mode field this server ignores
            File dir = new File(req[0]);
            DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
            List<String> options = List.of("-proc:none", "-nowarn", "-encoding", "UTF-8", "-d", dir.getPath());
            boolean ok = javac.getTask(null, files, diags, options, null,
                    files.getJavaFileObjects(new File(dir, req[1]))).call();
            StringBuilder msg = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    msg.append(d.getLineNumber()).append(": ").append(d.getMessage(Locale.ROOT)).append('\n');
                }
            }
            out.println(ok ? "ok" : "error\t" + msg.toString().replace("\\", "\\\\").replace("\n", "\\n"));
        }
    }
}
