package org.edgelab.kubernetes;

import java.io.IOException;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.PushResponseItem;
import org.testcontainers.DockerClientFactory;

/**
 * The container target's locally built server image under a registry's name, for a cluster to pull: tagged in the local
 * Docker and pushed with Docker's own credentials for that registry. Stateless and thread-safe; {@link #push} blocks.
 */
final class RegistryImages {
    private RegistryImages() {
    }

    /** Tags local image {@code name} ({@code repository:tag}) as {@code registry/repository:tag}; returns the new name. */
    static String tag(String name, String registry) throws IOException {
        int colon = name.lastIndexOf(':');
        String repository = registry + "/" + name.substring(0, colon);
        String tag = name.substring(colon + 1);
        try {
            DockerClientFactory.instance().client().tagImageCmd(name, repository, tag).exec();
        } catch (RuntimeException e) {
            throw new IOException("could not tag " + name + " as " + repository + ":" + tag + ": " + e.getMessage(), e);
        }
        return repository + ":" + tag;
    }

    /** Pushes {@code image} to its registry; throws IOException with Docker's reason when the push fails. */
    static void push(String image) throws IOException {
        int colon = image.lastIndexOf(':');
        DockerClient docker = DockerClientFactory.instance().client();
        ResultCallback.Adapter<PushResponseItem> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(PushResponseItem item) {
                if (item.getErrorDetail() != null) {
                    onError(new IOException(item.getErrorDetail().getMessage()));
                }
            }
        };
        try {
            docker.pushImageCmd(image.substring(0, colon)).withTag(image.substring(colon + 1)).exec(callback).awaitCompletion();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while pushing " + image, e);
        } catch (RuntimeException e) {
            throw new IOException("pushing " + image + " failed: " + e.getMessage()
                    + " (log Docker in to the registry, or set target_settings.push: false and push it yourself)", e);
        }
    }
}
