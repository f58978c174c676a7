// @ts-check
/**
 * Runs a WASI (preview1) command module with an in-memory file system: its arguments, one
 * preopened directory that holds only the files it writes, stdout and stderr captured. Enough of
 * WASI for flite's command line (`flite -voice slt -t TEXT -o /out/x.wav`), nothing more: no
 * environment, no reading files, no network, no real clock beyond the time of day.
 *
 * Why not `node:wasi`: on Node 20.20 a text of about 1,000 characters makes flite grow its memory
 * past 64 MB, and the process then died with a segmentation fault (exit 139) inside node:wasi's
 * functions, which V8 calls as "fast API calls"; the same run passed with
 * `--no-turbo-fast-api-calls`, a process-wide V8 flag that a worker cannot set for itself. A
 * segmentation fault in a worker thread ends the whole server, so the imports are plain JavaScript
 * here, reading the module's memory afresh on every call. It also needs no temporary folder and
 * prints no ExperimentalWarning.
 */

const ERRNO = { SUCCESS: 0, BADF: 8, INVAL: 28, NOENT: 44, NOSYS: 52, SPIPE: 70, NOTCAPABLE: 76 };
const FILETYPE = { CHARACTER_DEVICE: 2, DIRECTORY: 3, REGULAR_FILE: 4 };
const OFLAGS = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 };
const ALL_RIGHTS = 0x1fffffffn;
/** stdout and stderr are kept up to this many bytes each (diagnostics only). */
const MAX_CAPTURE = 16 * 1024;

class ProcExit extends Error {
  /** @param {number} code */
  constructor(code) {
    super(`exit ${code}`);
    this.code = code;
  }
}

/** A growable in-memory file. */
class MemoryFile {
  constructor() {
    this.bytes = new Uint8Array(64 * 1024);
    this.length = 0;
    this.position = 0;
  }

  /** @param {Uint8Array} chunk */
  write(chunk) {
    const end = this.position + chunk.length;
    if (end > this.bytes.length) {
      const grown = new Uint8Array(Math.max(end, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.position);
    this.position = end;
    this.length = Math.max(this.length, end);
  }

  contents() {
    return this.bytes.slice(0, this.length);
  }
}

/**
 * @param {WebAssembly.Module} module  a compiled WASI command (exports `memory` and `_start`)
 * @param {{ args: string[]; dir: string }} options  `dir` is the preopened directory, e.g. "/out"
 * @returns {Promise<{ exitCode: number; files: Map<string, Uint8Array>; stdout: string; stderr: string }>}
 */
export async function runWasiCommand(module, { args, dir }) {
  const encoder = new TextEncoder();
  const argBytes = args.map((a) => encoder.encode(`${a}\0`));
  const dirName = encoder.encode(dir);
  /** @type {Map<string, MemoryFile>} */
  const files = new Map();
  /** @type {Map<number, { path: string; file: MemoryFile }>} */
  const open = new Map();
  let nextFd = 4;
  const captured = { 1: "", 2: "" };
  /** @type {WebAssembly.Memory | null} */
  let memory = null;

  // The memory's ArrayBuffer is replaced whenever the module grows it: take a fresh view each call.
  const view = () => new DataView(/** @type {WebAssembly.Memory} */ (memory).buffer);
  const bytes = () => new Uint8Array(/** @type {WebAssembly.Memory} */ (memory).buffer);

  /** @param {number} iovs @param {number} count */
  function gather(iovs, count) {
    const dv = view();
    const mem = bytes();
    const parts = [];
    for (let i = 0; i < count; i++) {
      const ptr = dv.getUint32(iovs + i * 8, true);
      const len = dv.getUint32(iovs + i * 8 + 4, true);
      parts.push(mem.subarray(ptr, ptr + len));
    }
    return parts;
  }

  const wasi = {
    args_sizes_get(/** @type {number} */ countPtr, /** @type {number} */ sizePtr) {
      view().setUint32(countPtr, argBytes.length, true);
      view().setUint32(sizePtr, argBytes.reduce((n, b) => n + b.length, 0), true);
      return ERRNO.SUCCESS;
    },
    args_get(/** @type {number} */ argvPtr, /** @type {number} */ bufPtr) {
      const dv = view();
      let at = bufPtr;
      argBytes.forEach((arg, i) => {
        dv.setUint32(argvPtr + i * 4, at, true);
        bytes().set(arg, at);
        at += arg.length;
      });
      return ERRNO.SUCCESS;
    },
    environ_sizes_get(/** @type {number} */ countPtr, /** @type {number} */ sizePtr) {
      view().setUint32(countPtr, 0, true);
      view().setUint32(sizePtr, 0, true);
      return ERRNO.SUCCESS;
    },
    environ_get() {
      return ERRNO.SUCCESS;
    },
    clock_time_get(/** @type {number} */ _id, /** @type {bigint} */ _precision, /** @type {number} */ ptr) {
      view().setBigUint64(ptr, BigInt(Date.now()) * 1_000_000n, true);
      return ERRNO.SUCCESS;
    },
    fd_prestat_get(/** @type {number} */ fd, /** @type {number} */ ptr) {
      if (fd !== 3) return ERRNO.BADF;
      view().setUint8(ptr, 0); // a directory
      view().setUint32(ptr + 4, dirName.length, true);
      return ERRNO.SUCCESS;
    },
    fd_prestat_dir_name(/** @type {number} */ fd, /** @type {number} */ ptr, /** @type {number} */ len) {
      if (fd !== 3) return ERRNO.BADF;
      bytes().set(dirName.subarray(0, len), ptr);
      return ERRNO.SUCCESS;
    },
    fd_fdstat_get(/** @type {number} */ fd, /** @type {number} */ ptr) {
      const type = fd <= 2 ? FILETYPE.CHARACTER_DEVICE : fd === 3 ? FILETYPE.DIRECTORY : open.has(fd) ? FILETYPE.REGULAR_FILE : -1;
      if (type < 0) return ERRNO.BADF;
      const dv = view();
      dv.setUint8(ptr, type);
      dv.setUint16(ptr + 2, 0, true);
      dv.setBigUint64(ptr + 8, ALL_RIGHTS, true);
      dv.setBigUint64(ptr + 16, ALL_RIGHTS, true);
      return ERRNO.SUCCESS;
    },
    fd_fdstat_set_flags() {
      return ERRNO.SUCCESS;
    },
    path_open(
      /** @type {number} */ dirFd,
      /** @type {number} */ _dirFlags,
      /** @type {number} */ pathPtr,
      /** @type {number} */ pathLen,
      /** @type {number} */ oflags,
      /** @type {bigint} */ _rightsBase,
      /** @type {bigint} */ _rightsInheriting,
      /** @type {number} */ _fdFlags,
      /** @type {number} */ fdPtr,
    ) {
      if (dirFd !== 3) return ERRNO.BADF;
      const path = new TextDecoder().decode(bytes().slice(pathPtr, pathPtr + pathLen));
      if (!path || path.includes("/") || path.startsWith(".")) return ERRNO.NOTCAPABLE;
      let file = files.get(path);
      if (!file) {
        if (!(oflags & OFLAGS.CREAT)) return ERRNO.NOENT; // nothing to read here
        file = new MemoryFile();
        files.set(path, file);
      } else if (oflags & OFLAGS.TRUNC) {
        file.length = 0;
      }
      if (oflags & OFLAGS.DIRECTORY) return ERRNO.NOTCAPABLE;
      file.position = 0;
      const fd = nextFd++;
      open.set(fd, { path, file });
      view().setUint32(fdPtr, fd, true);
      return ERRNO.SUCCESS;
    },
    fd_write(/** @type {number} */ fd, /** @type {number} */ iovs, /** @type {number} */ count, /** @type {number} */ writtenPtr) {
      const parts = gather(iovs, count);
      const total = parts.reduce((n, p) => n + p.length, 0);
      if (fd === 1 || fd === 2) {
        const key = /** @type {1 | 2} */ (fd);
        if (captured[key].length < MAX_CAPTURE) captured[key] += parts.map((p) => new TextDecoder().decode(p)).join("");
      } else {
        const entry = open.get(fd);
        if (!entry) return ERRNO.BADF;
        for (const part of parts) entry.file.write(part);
      }
      view().setUint32(writtenPtr, total, true);
      return ERRNO.SUCCESS;
    },
    fd_read(/** @type {number} */ fd, /** @type {number} */ _iovs, /** @type {number} */ _count, /** @type {number} */ readPtr) {
      if (fd !== 0) return ERRNO.BADF;
      view().setUint32(readPtr, 0, true); // stdin is empty
      return ERRNO.SUCCESS;
    },
    fd_seek(/** @type {number} */ fd, /** @type {bigint} */ offset, /** @type {number} */ whence, /** @type {number} */ resultPtr) {
      const entry = open.get(fd);
      if (!entry) return fd <= 2 ? ERRNO.SPIPE : ERRNO.BADF;
      const base = whence === 0 ? 0 : whence === 1 ? entry.file.position : whence === 2 ? entry.file.length : -1;
      const target = base + Number(offset);
      if (base < 0 || target < 0) return ERRNO.INVAL;
      entry.file.position = target;
      view().setBigUint64(resultPtr, BigInt(target), true);
      return ERRNO.SUCCESS;
    },
    fd_close(/** @type {number} */ fd) {
      if (fd <= 3) return ERRNO.SUCCESS;
      return open.delete(fd) ? ERRNO.SUCCESS : ERRNO.BADF;
    },
    proc_exit(/** @type {number} */ code) {
      throw new ProcExit(code);
    },
  };

  // Anything else the module imports answers "not supported" instead of failing to link.
  const imports = new Proxy(wasi, {
    get: (target, key) => (key in target ? target[/** @type {keyof typeof target} */ (key)] : () => ERRNO.NOSYS),
  });
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: imports });
  memory = /** @type {WebAssembly.Memory} */ (instance.exports.memory);
  let exitCode = 0;
  try {
    /** @type {() => void} */ (instance.exports._start)();
  } catch (error) {
    if (!(error instanceof ProcExit)) throw error;
    exitCode = error.code;
  }
  return {
    exitCode,
    files: new Map([...files].map(([name, file]) => [name, file.contents()])),
    stdout: captured[1],
    stderr: captured[2],
  };
}
