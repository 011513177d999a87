// JavaDecls prints the declarations of Java files as JSON lines, from the JDK's own parser (the
// compiler tree API): types, methods and constructors, fields and enum constants, as types
// declare them (nested types too), not what method bodies or initializers declare.
// Usage: java JavaDecls.java ROOT < paths (one path a line, relative to ROOT).
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import javax.tools.*;

public class JavaDecls {
    public static void main(String[] args) throws Exception {
        Path root = Paths.get(args[0]);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        for (String path; (path = in.readLine()) != null; ) {
            JavacTask task = (JavacTask) compiler.getTask(null, files, d -> {}, List.of("-proc:none"),
                null, files.getJavaFileObjects(root.resolve(path).toFile()));
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree unit : task.parse()) {
                LineMap lines = unit.getLineMap();
                String file = path;
                for (Tree decl : unit.getTypeDecls()) {
                    if (decl instanceof ClassTree) {
                        type(out, file, unit, (ClassTree) decl, positions, lines);
                    }
                }
            }
        }
        out.flush();
    }

    static void type(PrintStream out, String file, CompilationUnitTree unit, ClassTree type,
            SourcePositions positions, LineMap lines) {
        emit(out, file, type.getSimpleName().toString(), line(unit, type, positions, lines),
            "type", type.getKind().toString());
        for (Tree member : type.getMembers()) {
            if (member instanceof ClassTree) {
                type(out, file, unit, (ClassTree) member, positions, lines);
            } else if (member instanceof MethodTree) {
                MethodTree method = (MethodTree) member;
                String name = method.getName().toString();
                if (name.equals("<init>")) name = type.getSimpleName().toString();
                emit(out, file, name, line(unit, member, positions, lines), "function", "method");
            } else if (member instanceof VariableTree) {
                emit(out, file, ((VariableTree) member).getName().toString(),
                    line(unit, member, positions, lines), "field", "field");
            }
        }
    }

    static long line(CompilationUnitTree unit, Tree tree, SourcePositions positions, LineMap lines) {
        return lines.getLineNumber(positions.getStartPosition(unit, tree));
    }

    static void emit(PrintStream out, String file, String name, long line, String kind_class,
            String kind) {
        if (name.isEmpty()) return;
        out.println("{\"path\": \"" + file.replace("\\", "\\\\").replace("\"", "\\\"")
            + "\", \"name\": \"" + name + "\", \"line\": " + line + ", \"class\": \""
            + kind_class + "\", \"kind\": \"" + kind + "\"}");
    }
}
