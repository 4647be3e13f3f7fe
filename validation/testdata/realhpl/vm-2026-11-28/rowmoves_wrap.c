/* Per-call log of HPL's kernels, outside the emu repository (never committed). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "hpl.h"
static FILE *lf; static int curjb=0;
static double t0c, t0w;
static double now(clockid_t c){ struct timespec t; clock_gettime(c,&t); return t.tv_sec+1e-9*t.tv_nsec; }
static void logc(const char *k, int m, int n, int kk, double c0, double w0){
  double c1=now(CLOCK_THREAD_CPUTIME_ID), w1=now(CLOCK_MONOTONIC);
  if(!lf){ char nm[256]; const char *d=getenv("HPLLOG"); if(!d) return; int r; MPI_Comm_rank(MPI_COMM_WORLD,&r); snprintf(nm,256,"%s.%d",d,r); lf=fopen(nm,"w"); }
  fprintf(lf,"%s,%d,%d,%d,%.9f,%.9f,%.6f\n",k,m,n,kk,c1-c0,w1-w0,w0);
}
#define BEG double c0=now(CLOCK_THREAD_CPUTIME_ID), w0=now(CLOCK_MONOTONIC);
static int maxidx(int m,const int*x){int r=0;for(int i=0;i<m;i++){int v=x[i]<0?-x[i]:x[i]; if(v>r)r=v;}return r;}
void __real_HPL_dlaswp00N(const int,const int,double*,const int,const int*);
void __wrap_HPL_dlaswp00N(const int M,const int N,double*A,const int LDA,const int*IPIV){BEG __real_HPL_dlaswp00N(M,N,A,LDA,IPIV); logc("dlaswp00N",M,N,maxidx(M,IPIV),c0,w0);}
void __real_HPL_dlaswp10N(const int,const int,double*,const int,const int*);
void __wrap_HPL_dlaswp10N(const int M,const int N,double*A,const int LDA,const int*IPIV){BEG __real_HPL_dlaswp10N(M,N,A,LDA,IPIV); logc("dlaswp10N",M,N,LDA,c0,w0);}
void __real_HPL_dlaswp01T(const int,const int,double*,const int,double*,const int,const int*,const int*);
void __wrap_HPL_dlaswp01T(const int M,const int N,double*A,const int LDA,double*U,const int LDU,const int*LA,const int*LAU){BEG __real_HPL_dlaswp01T(M,N,A,LDA,U,LDU,LA,LAU); int nu=0; for(int i=0;i<M;i++) if(LAU[i]>=0) nu++; logc("dlaswp01T",M,N,maxidx(M,LA),c0,w0); {int a=0,b=0,c=0,d=0; for(int i=0;i<M;i++){int top=LA[i]<curjb; if(LAU[i]>=0){ if(top) c++; else a++; } else { if(top) b++; else d++; }} fprintf(lf,"cls01T,%d,%d,%d,%d,%d\n",a,b,c,d,N);} (void)nu;}
void __real_HPL_dlaswp06T(const int,const int,double*,const int,double*,const int,const int*);
void __wrap_HPL_dlaswp06T(const int M,const int N,double*A,const int LDA,double*U,const int LDU,const int*LA){BEG __real_HPL_dlaswp06T(M,N,A,LDA,U,LDU,LA); logc("dlaswp06T",M,N,maxidx(M,LA),c0,w0);}
void __real_HPL_dlatcpy(const int,const int,const double*,const int,double*,const int);
void __wrap_HPL_dlatcpy(const int M,const int N,const double*A,const int LDA,double*B,const int LDB){BEG __real_HPL_dlatcpy(M,N,A,LDA,B,LDB); logc("dlatcpy",M,N,0,c0,w0);}
void __real_HPL_dlacpy(const int,const int,const double*,const int,double*,const int);
void __wrap_HPL_dlacpy(const int M,const int N,const double*A,const int LDA,double*B,const int LDB){BEG __real_HPL_dlacpy(M,N,A,LDA,B,LDB); logc("dlacpy",M,N,0,c0,w0);}
void __real_cblas_dgemm(int,int,int,int,int,int,double,const double*,int,const double*,int,double,double*,int);
void __wrap_cblas_dgemm(int o,int ta,int tb,int M,int N,int K,double al,const double*A,int lda,const double*B,int ldb,double be,double*C,int ldc){BEG __real_cblas_dgemm(o,ta,tb,M,N,K,al,A,lda,B,ldb,be,C,ldc); logc(tb==HplTrans?"dgemmT":"dgemm",M,N,K,c0,w0);}
void __real_cblas_dtrsm(int,int,int,int,int,int,int,double,const double*,int,double*,int);
void __wrap_cblas_dtrsm(int o,int s,int u,int t,int d,int M,int N,double al,const double*A,int lda,double*B,int ldb){BEG __real_cblas_dtrsm(o,s,u,t,d,M,N,al,A,lda,B,ldb); logc(s==HplLeft?"dtrsmL":"dtrsmR",M,N,0,c0,w0);}
void __real_HPL_pdlaswp01T(HPL_T_panel*,int*,HPL_T_panel*,const int);
void __wrap_HPL_pdlaswp01T(HPL_T_panel*B,int*F,HPL_T_panel*P,const int NN){curjb=P->jb; BEG __real_HPL_pdlaswp01T(B,F,P,NN); logc("pdlaswp01T",P->jb,NN,P->mp,c0,w0);}
void __real_HPL_pdlaswp00T(HPL_T_panel*,int*,HPL_T_panel*,const int);
void __wrap_HPL_pdlaswp00T(HPL_T_panel*B,int*F,HPL_T_panel*P,const int NN){BEG __real_HPL_pdlaswp00T(B,F,P,NN); logc("pdlaswp00T",P->jb,NN,P->mp,c0,w0);}
void __real_HPL_spreadT(HPL_T_panel*,int*,HPL_T_panel*,const enum HPL_SIDE,const int,double*,const int,const int,const int*,const int*,const int*);
void __wrap_HPL_spreadT(HPL_T_panel*B,int*F,HPL_T_panel*P,const enum HPL_SIDE s,const int N,double*U,const int LDU,const int SRC,const int*a,const int*b,const int*c){BEG __real_HPL_spreadT(B,F,P,s,N,U,LDU,SRC,a,b,c); logc("spreadT",0,N,0,c0,w0);}
void __real_HPL_rollT(HPL_T_panel*,int*,HPL_T_panel*,const int,double*,const int,const int*,const int*,const int*);
void __wrap_HPL_rollT(HPL_T_panel*B,int*F,HPL_T_panel*P,const int N,double*U,const int LDU,const int*a,const int*b,const int*c){BEG __real_HPL_rollT(B,F,P,N,U,LDU,a,b,c); logc("rollT",0,N,0,c0,w0);}
