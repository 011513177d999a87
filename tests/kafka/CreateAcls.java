// Creates ACLs on the SASL test broker (tests/kafka/broker.py): aiokafka speaks only the
// CreateAcls versions Kafka 4 removed, so the broker's own Java client does it. Run as a
// single-file program (java -cp <classpath> CreateAcls.java BOOTSTRAP USER PASSWORD CA_PEM)
// with one ACL per stdin line: principal resourceType(TOPIC|GROUP) name LITERAL|PREFIXED op.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

public class CreateAcls {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("security.protocol", "SASL_SSL");
        props.put("ssl.truststore.type", "PEM");
        props.put("ssl.truststore.location", args[3]);
        props.put("sasl.mechanism", "SCRAM-SHA-512");
        props.put("sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
            + args[1] + "\" password=\"" + args[2] + "\";");
        List<AclBinding> bindings = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) continue;
            String[] f = line.trim().split("\\s+");
            bindings.add(new AclBinding(
                new ResourcePattern(ResourceType.valueOf(f[1]), f[2], PatternType.valueOf(f[3])),
                new AccessControlEntry(f[0], "*", AclOperation.valueOf(f[4]),
                    AclPermissionType.ALLOW)));
        }
        try (Admin admin = Admin.create(props)) {
            admin.createAcls(bindings).all().get();
        }
        System.out.println("created " + bindings.size() + " ACLs");
    }
}
