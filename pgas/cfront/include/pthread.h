#ifndef _PTHREAD_H
#define _PTHREAD_H
/* Threads are not modelled: each call of a pthread_ routine is refused
   by name (libc.go). The declarations let the rest of the file compile,
   so that every refusal is found. */
typedef unsigned long pthread_t;
typedef struct { int __cfront_opaque; } pthread_attr_t;
typedef struct { int __cfront_opaque; } pthread_mutex_t;
typedef struct { int __cfront_opaque; } pthread_mutexattr_t;
typedef struct { int __cfront_opaque; } pthread_barrier_t;
typedef struct { int __cfront_opaque; } pthread_barrierattr_t;
typedef struct { int __cfront_opaque; } pthread_cond_t;
#define PTHREAD_MUTEX_INITIALIZER { 0 }
int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg);
int pthread_join(pthread_t t, void **ret);
pthread_t pthread_self(void);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned n);
int pthread_barrier_wait(pthread_barrier_t *b);
int pthread_barrier_destroy(pthread_barrier_t *b);
void pthread_exit(void *ret);
#endif
