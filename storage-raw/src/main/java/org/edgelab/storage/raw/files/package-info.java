/**
 * The {@code raw-files} engine: one file per object under hashed directories, as nginx's
 * {@code proxy_cache} keeps them, each file a checksummed header followed by the body. Files are
 * written under a temporary name and renamed on commit; the in-memory index is rebuilt by scanning
 * the directories at start.
 */
package org.edgelab.storage.raw.files;
