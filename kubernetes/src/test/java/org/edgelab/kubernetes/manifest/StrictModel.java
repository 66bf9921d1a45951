package org.edgelab.kubernetes.manifest;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Reads YAML back into fabric8's typed model and fails on any field the model does not know: fabric8 keeps such
 * fields in each object's {@code additionalProperties} instead of refusing them, so every object reached from the
 * documents is walked and a non-empty one is an error naming its path. For tests; stateless.
 */
final class StrictModel {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private StrictModel() {
    }

    /** The documents of {@code yaml}, each as its typed kind; throws AssertionError on an unknown field or kind. */
    static List<HasMetadata> read(String yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : yaml.split("(?m)^---\\s*$")) {
            if (document.lines().allMatch(l -> l.isBlank() || l.startsWith("#"))) {
                continue;
            }
            Object object = SERIALIZATION.unmarshal(document);
            if (!(object instanceof HasMetadata typed) || object.getClass().getName().endsWith("GenericKubernetesResource")) {
                throw new AssertionError("not a kind the typed model knows: " + document);
            }
            check(typed, typed.getKind() + "/" + typed.getMetadata().getName(), new IdentityHashMap<>());
            objects.add(typed);
        }
        return objects;
    }

    private static void check(Object value, String path, Map<Object, Boolean> seen) {
        if (value == null || seen.put(value, Boolean.TRUE) != null) {
            return;
        }
        if (value instanceof Collection<?> list) {
            int i = 0;
            for (Object item : list) {
                check(item, path + "[" + i++ + "]", seen);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> check(v, path + "." + k, seen));
            return;
        }
        if (!(value instanceof KubernetesResource)) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object field;
            try {
                field = getter.invoke(value);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError("cannot read " + path + "." + getter.getName(), e);
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (field instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    throw new AssertionError("unknown field(s) " + extra.keySet() + " at " + path
                            + " (" + value.getClass().getSimpleName() + ")");
                }
                continue;
            }
            String name = getter.getName().substring(3);
            check(field, path + "." + Character.toLowerCase(name.charAt(0)) + name.substring(1), seen);
        }
    }
}
