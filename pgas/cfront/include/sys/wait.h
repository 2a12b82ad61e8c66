#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H
/* Processes are not modelled: fork, wait and waitpid are refused by name
   where they are called. */
typedef int pid_t;
pid_t fork(void);
pid_t wait(int *status);
pid_t waitpid(pid_t pid, int *status, int options);
#define WIFEXITED(s) (((s) & 0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#endif
