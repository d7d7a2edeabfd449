// The OS's reason for a failed open, read or write, in the words the native CLI
// prints (glibc's strerror), so that both CLIs name it alike.
const REASONS = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EROFS: 'Read-only file system',
  ENOSPC: 'No space left on device',
  EDQUOT: 'Disk quota exceeded',
  EFBIG: 'File too large',
  EIO: 'Input/output error',
  EBADF: 'Bad file descriptor',
  ENXIO: 'No such device or address',
  ENAMETOOLONG: 'File name too long',
  ELOOP: 'Too many levels of symbolic links',
  ETXTBSY: 'Text file busy',
};

/** strerror's text for a Node error's code (the code itself when it is not listed). */
export const osReason = (error) => REASONS[error?.code] ?? error?.code ?? String(error);
