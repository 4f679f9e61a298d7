// Fixture for security-java.yaml, checked by `semgrep --test`.
// ruleid: java-network-access
import java.net.Socket;
import java.util.*;

class Spawner {
    static int run() throws Exception {
        // ruleid: java-process-spawn
        Process p = Runtime.getRuntime().exec("ls");
        // ruleid: java-process-spawn
        Process q = new ProcessBuilder("id").start();
        // ruleid: java-network-access
        Socket s = new Socket("example.com", 80);
        // ok: java-process-spawn
        List<Integer> xs = new ArrayList<>();
        return xs.size();
    }
}
